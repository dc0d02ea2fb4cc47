import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Deletes at most `batch` rows older than the cutoff from a log table; answers how many went. */
export async function deleteOlderThan(
  db: Kysely<Database>,
  table: 'op_logs' | 'login_attempts' | 'message_sends' | 'ip_switch_log',
  cutoff: number,
  batch: number,
): Promise<number> {
  const result = await db
    .deleteFrom(table)
    .where('id', 'in', (eb) =>
      eb.selectFrom(table).select('id').where('created_at', '<', cutoff).orderBy('id').limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
