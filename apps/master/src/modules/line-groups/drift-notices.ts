import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { adminIds } from '../health/health.repository.ts';
import type { Notifier } from '../messages/notifier.ts';
import { checkAllDrift } from './drift.ts';

/**
 * The scheduled DNS check: every published line group's records compared with its settings. Groups
 * that differ, or whose provider could not be read, are logged and told to the admins (as the
 * admin-only failover messages are: the same people act on both). Answers how many groups differ.
 */
export async function reportDnsDrift(deps: {
  db: Kysely<Database>;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  notifier: Notifier;
}): Promise<number> {
  const { db, secrets, log, notifier } = deps;
  const drifted = (await checkAllDrift(db, { secrets })).filter(
    (drift) => drift.fqdn && (drift.error || drift.differences.length > 0),
  );
  if (drifted.length === 0) return 0;
  log.warn(
    {
      groups: drifted.map((drift) => ({
        id: drift.group_id,
        fqdn: drift.fqdn,
        differences: drift.differences.length,
        error: drift.error,
      })),
    },
    'line group DNS records differ from their settings',
  );
  const lines = drifted.map((drift) => {
    if (drift.error) return `${drift.group_name} (${drift.fqdn}): could not be checked: ${drift.error}`;
    const count = (kind: string) => drift.differences.filter((entry) => entry.kind === kind).length;
    return `${drift.group_name} (${drift.fqdn}): ${count('missing')} missing, ${count('extra')} extra, ${count('different')} different`;
  });
  const notice = {
    title: `DNS of ${drifted.length} line group(s) differs from their settings`,
    body: `${lines.join('\n')}\nCheck DNS on the line group page shows the records and repairs them.`,
  };
  for (const userId of await adminIds(db)) {
    try {
      await notifier.notify(userId, 'node_failover', notice);
    } catch (error) {
      log.warn({ err: error, userId }, 'a DNS drift message was not delivered');
    }
  }
  return drifted.length;
}
