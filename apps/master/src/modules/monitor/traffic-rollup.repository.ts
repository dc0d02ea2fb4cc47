import type { AccessLogLine } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { LogDatabase, SiteTotalsTable, SiteTrafficTable } from '../../db/logs-schema.ts';
import { TRAFFIC_ROLLUPS } from '../../db/migrations/logs/2026-11-25T1000-site-traffic.ts';
import { SITE_TOTALS } from '../../db/migrations/logs/2026-11-26T0510-site-totals.ts';
import { prepared } from '../../db/prepared.ts';

export type RollupTable = (typeof TRAFFIC_ROLLUPS)[number]['table'];
export { SITE_TOTALS, TRAFFIC_ROLLUPS };

const COUNTS = [
  'requests',
  'bytes_in',
  'bytes_out',
  'status_2xx',
  'status_3xx',
  'status_4xx',
  'status_5xx',
  'cache_hits',
  'blocked',
] as const;

const emptyRow = (site_id: number, bucket: number): SiteTrafficTable => ({
  site_id,
  bucket,
  requests: 0,
  bytes_in: 0,
  bytes_out: 0,
  status_2xx: 0,
  status_3xx: 0,
  status_4xx: 0,
  status_5xx: 0,
  cache_hits: 0,
  blocked: 0,
});

/** The finest interval lines are summed by; every rollup's interval is a whole number of them. */
const MINUTE = 60;

/**
 * One batch's lines summed per (site, minute), the same counting as the agent's site minutes plus
 * blocks, in (site, minute) order: one pass over the lines, whatever the rollups.
 */
export function sumMinutes(lines: readonly AccessLogLine[]): SiteTrafficTable[] {
  const sites = new Map<number, Map<number, SiteTrafficTable>>();
  for (const line of lines) {
    if (line.site_id <= 0) continue;
    const bucket = Math.floor(Math.round(line.time * 1000) / (MINUTE * 1000)) * MINUTE;
    let buckets = sites.get(line.site_id);
    if (!buckets) {
      buckets = new Map();
      sites.set(line.site_id, buckets);
    }
    let row = buckets.get(bucket);
    if (!row) {
      row = emptyRow(line.site_id, bucket);
      buckets.set(bucket, row);
    }
    row.requests++;
    row.bytes_in += line.bytes_received;
    row.bytes_out += line.bytes_sent;
    const status = Math.floor(line.status / 100);
    if (status === 2) row.status_2xx++;
    else if (status === 3) row.status_3xx++;
    else if (status === 4) row.status_4xx++;
    else if (status === 5) row.status_5xx++;
    if (line.cache_status === 'HIT') row.cache_hits++;
    if (line.block_reason !== '') row.blocked++;
  }
  // One order for every writer, so two batches adding to the same rows cannot deadlock.
  return [...sites.values()].flatMap((buckets) => [...buckets.values()]).sort(bySiteAndBucket);
}

/** Per-minute rows summed into `seconds` intervals (a whole number of minutes), in (site, bucket) order. */
export function rollUp(minutes: readonly SiteTrafficTable[], seconds: number): SiteTrafficTable[] {
  if (seconds % MINUTE !== 0) throw new Error(`${seconds} s is not a whole number of minutes`);
  const rows: SiteTrafficTable[] = [];
  for (const minute of minutes) {
    const bucket = Math.floor(minute.bucket / seconds) * seconds;
    const last = rows.at(-1);
    // Sorted by (site, minute), so the rows of one (site, bucket) come one after another.
    if (last && last.site_id === minute.site_id && last.bucket === bucket) {
      for (const column of COUNTS) last[column] += minute[column];
    } else {
      rows.push({ ...minute, bucket });
    }
  }
  return rows;
}

const bySiteAndBucket = (a: SiteTrafficTable, b: SiteTrafficTable) => a.site_id - b.site_id || a.bucket - b.bucket;

/** Per-site rows summed per interval: every site together. */
export function sumTotals(rows: readonly SiteTrafficTable[]): SiteTotalsTable[] {
  const totals = new Map<number, SiteTotalsTable>();
  for (const { site_id: _site, ...row } of rows) {
    const total = totals.get(row.bucket);
    if (!total) totals.set(row.bucket, { ...row });
    else for (const column of COUNTS) total[column] += row[column];
  }
  return [...totals.values()].sort((a, b) => a.bucket - b.bucket);
}

/**
 * Rows a statement: a batch holds a row per site and minute, so most of its statements are one row;
 * more are written 100 at a time, the rest in smaller steps (11 columns x 100 stay far below the
 * bound-parameter limits), so each table's upsert is compiled for four sizes only.
 */
const STEPS = [100, 20, 5, 1];

/** `rows` in statements of the STEPS' sizes, each run by an upsert of its own (`prepared` for one size). */
function inSteps<R>(upsert: () => (db: Kysely<LogDatabase>, rows: R[]) => Promise<unknown>) {
  const bySize = new Map(STEPS.map((size) => [size, upsert()]));
  return async (db: Kysely<LogDatabase>, rows: readonly R[]): Promise<void> => {
    let done = 0;
    for (const size of STEPS) {
      for (; rows.length - done >= size; done += size) await bySize.get(size)?.(db, rows.slice(done, done + size));
    }
  };
}

/** A rollup's upsert adding rows' counts to what its (site, bucket) rows hold, compiled once a size. */
const addToRollup = (table: RollupTable) =>
  inSteps(() =>
    prepared(
      (db: Kysely<LogDatabase>, rows: SiteTrafficTable[]) =>
        db
          .insertInto(table)
          .values(rows)
          .onConflict((oc) =>
            oc
              .columns(['site_id', 'bucket'])
              .doUpdateSet((eb) =>
                Object.fromEntries(
                  COUNTS.map((column) => [column, eb(eb.ref(`${table}.${column}`), '+', eb.ref(`excluded.${column}`))]),
                ),
              ),
          ),
      // Rows are made with their columns in this order (`emptyRow`), the order the upsert binds.
      (rows) => rows.flatMap((row) => [row.site_id, row.bucket, ...COUNTS.map((column) => row[column])]),
    ),
  );

/** The same for every site together: the totals' rows by bucket. */
const addToTotals = (table: (typeof SITE_TOTALS)[number]['table']) =>
  inSteps(() =>
    prepared(
      (db: Kysely<LogDatabase>, rows: SiteTotalsTable[]) =>
        db
          .insertInto(table)
          .values(rows)
          .onConflict((oc) =>
            oc
              .column('bucket')
              .doUpdateSet((eb) =>
                Object.fromEntries(
                  COUNTS.map((column) => [column, eb(eb.ref(`${table}.${column}`), '+', eb.ref(`excluded.${column}`))]),
                ),
              ),
          ),
      (rows) => rows.flatMap((row) => [row.bucket, ...COUNTS.map((column) => row[column])]),
    ),
  );

const ROLLUPS = TRAFFIC_ROLLUPS.map(({ table, seconds }) => {
  const totals = SITE_TOTALS.find((entry) => entry.seconds === seconds)?.table;
  return { seconds, add: addToRollup(table), addTotals: totals === undefined ? undefined : addToTotals(totals) };
});

/**
 * Adds a batch's traffic (its lines summed by `sumMinutes`) to the minute, hour and day rollups, per
 * site and every site together. Runs in the transaction that claims the batch, so a batch sent again
 * is neither stored nor counted twice.
 */
export async function addTrafficRollups(trx: Kysely<LogDatabase>, minutes: readonly SiteTrafficTable[]): Promise<void> {
  for (const { seconds, add, addTotals } of ROLLUPS) {
    const rows = seconds === MINUTE ? minutes : rollUp(minutes, seconds);
    await add(trx, rows);
    if (addTotals && rows.length > 0) await addTotals(trx, sumTotals(rows));
  }
}
