import { type Kysely, sql } from 'kysely';
import type { LogDatabase } from './logs-schema.ts';

const DAY_MS = 86_400_000;

/**
 * PostgreSQL: drops the day partitions of `table` that end at or before `cutoffMs` (whole days
 * only: the partition holding the cutoff stays until the next day). Answers the partitions dropped.
 * Partitions are named `<table>_YYYY_MM_DD` (ensureDayPartitions).
 */
export async function dropDayPartitionsBefore(
  logs: Kysely<LogDatabase>,
  table: keyof LogDatabase,
  cutoffMs: number,
): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name
    from pg_inherits
    join pg_class parent on parent.oid = pg_inherits.inhparent
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_namespace ns on ns.oid = parent.relnamespace
    where parent.relname = ${table} and ns.nspname = current_schema()`.execute(logs);
  const pattern = new RegExp(`^${table}_(\\d{4})_(\\d{2})_(\\d{2})$`);
  const dropped: string[] = [];
  for (const { name } of rows) {
    const match = pattern.exec(name);
    if (!match) continue;
    const dayEnd = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + DAY_MS;
    if (dayEnd > cutoffMs) continue;
    await sql`drop table if exists ${sql.table(name)}`.execute(logs);
    dropped.push(name);
  }
  return dropped.sort();
}
