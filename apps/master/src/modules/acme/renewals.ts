import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { certsDueForRenewal } from '../certs/certs.repository.ts';
import { queueRenewals } from '../certs/certs.service.ts';
import { changeConfig } from '../config/config-version.ts';
import { deleteOrphanChallenges, orphanChallenges } from './challenges.repository.ts';

/**
 * Queues the issuance of every ACME certificate whose renewal is due (30 days before expiry by
 * default, a day after a failed renewal), and drops HTTP-01 challenges no running task owns.
 */
export async function renewDueCerts(db: Kysely<Database>, now = Date.now()): Promise<number[]> {
  if ((await orphanChallenges(db)) > 0) await changeConfig(db, (trx) => deleteOrphanChallenges(trx));
  return queueRenewals(db, await certsDueForRenewal(db, now));
}
