import type { LogBatchBody, NodeMetricsBody } from '@rampart/contracts';
import { CompiledQuery, type Kysely } from 'kysely';
import type { ClickHouseStore } from '../../db/clickhouse/store.ts';
import type { Dialect } from '../../db/database.ts';
import type { EventStore } from '../../db/events.ts';
import type { LogBatchesTable, LogDatabase } from '../../db/logs-schema.ts';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { prepared } from '../../db/prepared.ts';
import { addNodeRollups } from '../monitor/node-rollup.repository.ts';
import { addStreamRollups } from '../monitor/stream-rollup.repository.ts';
import { addTrafficRollups, sumMinutes } from '../monitor/traffic-rollup.repository.ts';
import { addUsageSamples } from '../usage/usage-samples.repository.ts';
import {
  ACCESS_COLUMNS,
  accessRow,
  ipKeys,
  NO_ACCESS,
  NO_STREAM,
  STREAM_COLUMNS,
  streamRow,
  writeAccessValues,
  writeStreamValues,
} from './log-rows.ts';

// Node metrics' site minutes: 500 rows a statement stay far below SQLite's bound-parameter limit.
const CHUNK = 500;

/**
 * Rows a statement: as many as fit (17 columns x 500 stay far below SQLite's bound-parameter
 * limit), the rest in smaller steps, so a store prepares four statements a table, not one a size.
 */
const STEPS = [500, 100, 20, 1];

/**
 * The multi-row INSERT of `rows` rows, compiled by Kysely once per dialect, table and size: a batch
 * binds its values to ready SQL (the same text each time, so SQLite's statement cache finds it at
 * once), instead of building and compiling a query of thousands of values.
 */
const insertTexts = new Map<string, string>();
function insertText(trx: Kysely<LogDatabase>, dialect: Dialect, table: 'access_logs' | 'stream_logs', rows: number) {
  const key = `${dialect}:${table}:${rows}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    text =
      table === 'access_logs'
        ? trx
            .insertInto(table)
            .values(Array(rows).fill(accessRow(0, NO_ACCESS)))
            .compile().sql
        : trx
            .insertInto(table)
            .values(Array(rows).fill(streamRow(0, NO_STREAM)))
            .compile().sql;
    insertTexts.set(key, text);
  }
  return text;
}

/** The values of one multi-row INSERT: `rows` rows, in the compiled column order. */
interface InsertStatement {
  rows: number;
  values: unknown[];
}

/**
 * `lines` as the values of INSERTs of up to 500 rows each; `write` puts a line's `columns` values
 * into a statement's list from `at`.
 */
function insertStatements<T>(
  lines: readonly T[],
  columns: number,
  write: (into: unknown[], at: number, line: T) => void,
): InsertStatement[] {
  const statements: InsertStatement[] = [];
  let done = 0;
  for (const rows of STEPS) {
    for (; lines.length - done >= rows; done += rows) {
      const values = new Array<unknown>(rows * columns);
      for (let row = 0; row < rows; row++) write(values, row * columns, lines[done + row]!);
      statements.push({ rows, values });
    }
  }
  return statements;
}

/** Runs the statements against `table`'s INSERT text of their size. */
async function insertRows(
  trx: Kysely<LogDatabase>,
  dialect: Dialect,
  table: 'access_logs' | 'stream_logs',
  statements: readonly InsertStatement[],
): Promise<void> {
  for (const { rows, values } of statements) {
    await trx.executeQuery(CompiledQuery.raw(insertText(trx, dialect, table, rows), values));
  }
}

/** The (node, seq) row of a batch, compiled once: nothing is returned when the row is there already. */
const insertBatchRow = prepared(
  (db: Kysely<LogDatabase>, row: LogBatchesTable) =>
    db
      .insertInto('log_batches')
      .values(row)
      .onConflict((oc) => oc.columns(['node_id', 'seq']).doNothing())
      .returning('seq'),
  (row) => [row.node_id, row.seq, row.lines, row.received_at],
);

/** The batch's (node, seq) row: false when it is already there (the batch was stored before). */
async function claimBatch(trx: Kysely<LogDatabase>, nodeId: number, batch: LogBatchBody): Promise<boolean> {
  const claimed = await insertBatchRow(trx, {
    node_id: nodeId,
    seq: batch.seq,
    lines: batch.access.length + batch.stream.length,
    received_at: Date.now(),
  });
  return claimed.length > 0;
}

/**
 * Stores a batch exactly once: the (node, seq) row, the lines and their traffic rollups commit
 * together, so a batch the agent sends again after a lost acknowledgement is recognised and not
 * stored (nor counted) twice.
 */
export async function ingestLogBatch(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  nodeId: number,
  batch: LogBatchBody,
  events?: EventStore,
): Promise<boolean> {
  if (events?.kind === 'clickhouse') return ingestIntoClickHouse(logs, events.clickhouse, nodeId, batch);
  // Only PostgreSQL's logs are partitioned by day: SQLite needs no list of the batch's times.
  if (dialect === 'postgres') {
    await ensureDayPartitions(
      logs,
      dialect,
      'access_logs',
      'ms',
      batch.access.map((line) => Math.round(line.time * 1000)),
    );
    await ensureDayPartitions(
      logs,
      dialect,
      'stream_logs',
      'ms',
      batch.stream.map((line) => Math.round(line.time * 1000)),
    );
  }
  // The values and the rollups' sums are made before the transaction: the connection is held for
  // the writes only.
  const keyOf = ipKeys();
  const access = insertStatements(batch.access, ACCESS_COLUMNS, (into, at, line) =>
    writeAccessValues(into, at, nodeId, line, keyOf),
  );
  const stream = insertStatements(batch.stream, STREAM_COLUMNS, (into, at, line) =>
    writeStreamValues(into, at, nodeId, line, keyOf),
  );
  const minutes = sumMinutes(batch.access);
  return logs.transaction().execute(async (trx) => {
    if (!(await claimBatch(trx, nodeId, batch))) return false;
    await insertRows(trx, dialect, 'access_logs', access);
    await addTrafficRollups(trx, minutes);
    await addUsageSamples(trx, minutes);
    await insertRows(trx, dialect, 'stream_logs', stream);
    await addStreamRollups(trx, batch.stream);
    return true;
  });
}

/** The first of `count` new line ids of a kind (the counter row is locked until the transaction ends). */
async function takeIds(trx: Kysely<LogDatabase>, kind: 'access' | 'stream', count: number): Promise<number> {
  if (count === 0) return 0;
  const row = await trx
    .updateTable('log_id_counters')
    .set((eb) => ({ next_id: eb('next_id', '+', count) }))
    .where('kind', '=', kind)
    .returning('next_id')
    .executeTakeFirstOrThrow();
  return Number(row.next_id) - count;
}

/**
 * The same batch into ClickHouse: the (node, seq) claim and the line ids are taken in the logs
 * database's transaction, the lines inserted before it commits, and ClickHouse's materialized views
 * add them to the rollups. A failed insert rolls the claim back, so the agent's retry stores the
 * batch; only a commit lost after a successful insert could store a batch twice.
 */
async function ingestIntoClickHouse(
  logs: Kysely<LogDatabase>,
  clickhouse: ClickHouseStore,
  nodeId: number,
  batch: LogBatchBody,
): Promise<boolean> {
  // The rows are made before the transaction (the logs connection is held for the claim and the
  // insert only); their ids are set once taken.
  const keyOf = ipKeys();
  const access = batch.access.map((line) => ({ id: 0, ...accessRow(nodeId, line, keyOf) }));
  const stream = batch.stream.map((line) => ({ id: 0, ...streamRow(nodeId, line, keyOf) }));
  return logs.transaction().execute(async (trx) => {
    if (!(await claimBatch(trx, nodeId, batch))) return false;
    const firstAccess = await takeIds(trx, 'access', access.length);
    const firstStream = await takeIds(trx, 'stream', stream.length);
    access.forEach((row, i) => {
      row.id = firstAccess + i;
    });
    stream.forEach((row, i) => {
      row.id = firstStream + i;
    });
    await Promise.all([clickhouse.insert('access_logs', access), clickhouse.insert('stream_logs', stream)]);
    return true;
  });
}

/** Node metrics by time (a repeat is ignored); site minutes keep the latest totals per node. */
export async function ingestMetrics(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  nodeId: number,
  report: NodeMetricsBody,
) {
  const { sites, time, nginx_up, ...node } = report;
  await ensureDayPartitions(logs, dialect, 'node_metrics', 's', [time]);
  await ensureDayPartitions(
    logs,
    dialect,
    'site_minutes',
    's',
    sites.map((site) => site.minute),
  );
  await logs.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('node_metrics')
      .values({ node_id: nodeId, time, ...node, nginx_up: nginx_up === undefined ? null : Number(nginx_up) })
      .onConflict((oc) => oc.columns(['node_id', 'time']).doNothing())
      .returning('time')
      .executeTakeFirst();
    // A repeated report is neither stored nor counted again.
    if (stored) await addNodeRollups(trx, nodeId, report);
    for (let i = 0; i < sites.length; i += CHUNK) {
      await trx
        .insertInto('site_minutes')
        .values(sites.slice(i, i + CHUNK).map((site) => ({ ...site, node_id: nodeId })))
        .onConflict((oc) =>
          oc.columns(['site_id', 'minute', 'node_id']).doUpdateSet((eb) => ({
            requests: eb.ref('excluded.requests'),
            bytes_in: eb.ref('excluded.bytes_in'),
            bytes_out: eb.ref('excluded.bytes_out'),
            status_2xx: eb.ref('excluded.status_2xx'),
            status_3xx: eb.ref('excluded.status_3xx'),
            status_4xx: eb.ref('excluded.status_4xx'),
            status_5xx: eb.ref('excluded.status_5xx'),
            cache_hits: eb.ref('excluded.cache_hits'),
          })),
        )
        .execute();
    }
  });
}
