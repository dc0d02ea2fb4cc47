import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { certsDueForRenewal } from '../certs/certs.repository.ts';
import { queueRenewals } from '../certs/certs.service.ts';
import { changeConfig } from '../config/config-version.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { deleteOrphanChallenges, orphanChallenges } from './challenges.repository.ts';

/**
 * Queues the issuance of every ACME certificate whose renewal is due (30 days before expiry by
 * default, a day after a failed renewal), and drops HTTP-01 challenges no running task owns.
 */
export async function renewDueCerts(db: Kysely<Database>, now = Date.now()): Promise<number[]> {
  if ((await orphanChallenges(db)) > 0) await changeConfig(db, (trx) => deleteOrphanChallenges(trx));
  return queueRenewals(db, await certsDueForRenewal(db, now));
}

/** Runs the renewal sweep now and then every `acme_renew_interval_seconds` (read anew each round). */
export function startRenewals(db: Kysely<Database>, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let sweeping: Promise<void> = Promise.resolve();
  const round = () => {
    sweeping = (async () => {
      try {
        const queued = await renewDueCerts(db);
        if (queued.length > 0) log.info({ certs: queued }, 'queued certificate renewals');
      } catch (error) {
        log.error({ err: error }, 'certificate renewal sweep failed');
      }
      if (stopped) return;
      const { acme_renew_interval_seconds } = await loadSettings(db).catch(() => ({
        acme_renew_interval_seconds: 3600,
      }));
      timer = setTimeout(round, Math.max(10, acme_renew_interval_seconds) * 1000);
      timer.unref();
    })();
  };
  round();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
    },
  };
}
