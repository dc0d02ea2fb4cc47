import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { LogDatabase } from './logs-schema.ts';

const DAY_MS = 86_400_000;
const created = new WeakMap<Kysely<LogDatabase>, Set<string>>();

/**
 * PostgreSQL: makes sure the day partitions that `values` fall into exist before rows are inserted
 * (a row with no partition is an error). `unit` is the column's: milliseconds or seconds. SQLite
 * has no partitions and needs nothing.
 */
export async function ensureDayPartitions(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  table: keyof LogDatabase,
  unit: 'ms' | 's',
  values: readonly number[],
): Promise<void> {
  if (dialect !== 'postgres' || values.length === 0) return;
  const known = created.get(logs) ?? new Set<string>();
  created.set(logs, known);
  const scale = unit === 'ms' ? 1 : 1000;
  const days = new Set(values.map((value) => Math.floor((value * scale) / DAY_MS)));
  for (const day of days) {
    const name = `${table}_${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '_')}`;
    // Only recent days are remembered: retention drops old partitions (in any master), and a late
    // line for such a day must find its partition made again, not a stale memory of it.
    const recent = day >= Math.floor(Date.now() / DAY_MS) - 1;
    if (recent && known.has(name)) continue;
    const from = (day * DAY_MS) / scale;
    const to = ((day + 1) * DAY_MS) / scale;
    try {
      await sql`create table if not exists ${sql.table(name)} partition of ${sql.table(table)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
        logs,
      );
    } catch (error) {
      // Another ingest created it at the same moment.
      if (!/already exists/.test(String(error))) throw error;
    }
    if (recent) known.add(name);
  }
}
