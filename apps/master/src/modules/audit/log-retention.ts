import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { deleteOlderThan } from './log-retention.repository.ts';

/**
 * The account and fleet logs (operations, sign-ins, messages sent, IP switches) are kept at least
 * this long, whatever the setting says.
 */
export const MIN_LOG_RETENTION_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 5000;
// A round deletes at most this many batches per table, so a huge backlog never holds the database long.
const MAX_BATCHES = 20;
const LOG_TABLES = ['op_logs', 'login_attempts', 'message_sends', 'ip_switch_log'] as const;

/**
 * Deletes operation, sign-in, message-send and IP-switch log rows older than the retention (bounded
 * per round); answers how many went.
 */
export async function pruneAccountLogs(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const { log_retention_days } = await loadSettings(db);
  const cutoff = now - Math.max(MIN_LOG_RETENTION_DAYS, log_retention_days) * DAY_MS;
  let deleted = 0;
  for (const table of LOG_TABLES) {
    for (let round = 0; round < MAX_BATCHES; round++) {
      const gone = await deleteOlderThan(db, table, cutoff, BATCH);
      deleted += gone;
      if (gone < BATCH) break;
    }
  }
  return deleted;
}
