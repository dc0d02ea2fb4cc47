import type { Condition, FilterSettings, FilterType } from '@rampart/contracts';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EventStore } from '../../db/events.ts';
import type { EventDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import { ownedBy } from '../protection/cc-owner.ts';
import type { PreviewLogLine } from './preview-replay.ts';

/** The conditions of the matches among `ids` that rows of `owners` may use, by id. */
export async function usableMatches(db: Kysely<Database>, owners: readonly number[], ids: readonly number[]) {
  const rows = await db
    .selectFrom('cc_matches')
    .select(['id', 'conditions'])
    .where('id', 'in', ids)
    .where(ownedBy('user_id', owners))
    .execute();
  return new Map(rows.map((row) => [row.id, JSON.parse(row.conditions) as Condition[]]));
}

/** The settings of the filters among `ids` that rows of `owners` may use, by id. */
export async function usableFilters(db: Kysely<Database>, owners: readonly number[], ids: readonly number[]) {
  const rows = await db
    .selectFrom('cc_filters')
    .select(['id', 'name', 'type', 'settings'])
    .where('id', 'in', ids)
    .where(ownedBy('user_id', owners))
    .execute();
  return new Map<number, FilterSettings>(
    rows.map((row) => [row.id, { name: row.name, type: row.type as FilterType, ...JSON.parse(row.settings) }]),
  );
}

/** A site's lines in [fromMs, toMs): every query starts from the (site_id, time_ms) index. */
export interface PreviewRange {
  siteId: number;
  fromMs: number;
  toMs: number;
}

/** Lines a page reads: enough to keep memory flat, few enough round trips. */
const PAGE = 50_000;

const ofSite = (logs: Kysely<EventDatabase>, { siteId, fromMs, toMs }: PreviewRange) =>
  logs
    .selectFrom('access_logs')
    .where('site_id', '=', siteId)
    .where('time_ms', '>=', fromMs)
    .where('time_ms', '<', toMs);

/** How many lines the site has in the range. */
export async function countSiteLines(logs: Kysely<EventDatabase>, range: PreviewRange): Promise<number> {
  const row = await ofSite(logs, range)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type PageRow = Omit<PreviewLogLine, 'time_ms'> & { id: number | string; time_ms: number | string };

const COLUMNS = [
  'id',
  'time_ms',
  'client_ip',
  'country',
  'method',
  'host',
  'uri',
  'status',
  'user_agent',
  'referer',
] as const;

/**
 * The site's lines in the range that `narrowing` holds for, oldest first, in batches: the replay
 * needs them in the order the edge saw them.
 */
export function narrowedLines(
  events: EventStore,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
): AsyncGenerator<PreviewLogLine[]> {
  return events.kind === 'clickhouse'
    ? streamedLines(events, range, narrowing)
    : pagedLines(events.db, range, narrowing);
}

const lineOf = ({ id: _id, ...line }: PageRow): PreviewLogLine => ({
  ...line,
  time_ms: Number(line.time_ms),
  status: Number(line.status),
});

/** What an ACL's conditions may read beyond the address, country, URI and agent the answer counts by. */
export type AlikeColumn = 'method' | 'host' | 'referer';

export type AlikeLines = Omit<PreviewLogLine, 'time_ms' | 'status'> & { requests: number };

async function* streamed<Row>(
  events: Extract<EventStore, { kind: 'clickhouse' }>,
  compiled: { sql: string; parameters: readonly unknown[] },
) {
  // The dialect writes every value as a quoted literal: the compiled text carries no parameters.
  if (compiled.parameters.length > 0) throw new Error('a ClickHouse query must not carry parameters');
  const result = await events.clickhouse.client.query({
    query: compiled.sql,
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  try {
    for await (const rows of result.stream<Row>()) yield rows.map((row) => row.json() as Row);
  } finally {
    result.close();
  }
}

/**
 * ClickHouse, for a rule that decides each line alone (an ACL): the lines that `narrowing` holds for,
 * those alike but for time and status counted together by the database.
 */
export async function* alikeLines(
  events: Extract<EventStore, { kind: 'clickhouse' }>,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
  read: readonly AlikeColumn[],
): AsyncGenerator<AlikeLines[]> {
  // Only what the conditions read and the answer counts by: fewer columns, fewer groups.
  const columns = ['client_ip', 'country', 'uri', 'user_agent', ...read] as const;
  const query = ofSite(events.db, range)
    .where(narrowing)
    .select([...columns, sql<number>`count()`.as('requests')])
    .groupBy([...columns]);
  for await (const rows of streamed<Partial<AlikeLines>>(events, query.compile())) {
    yield rows.map((row) => ({
      client_ip: row.client_ip ?? '',
      country: row.country ?? '',
      uri: row.uri ?? '',
      user_agent: row.user_agent ?? '',
      method: row.method ?? '',
      host: row.host ?? '',
      referer: row.referer ?? '',
      requests: Number(row.requests),
    }));
  }
}

interface Cursor {
  time: number;
  id: number;
}

const newestQuery = (
  events: Extract<EventStore, { kind: 'clickhouse' }>,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
  before: Cursor | null,
  limit: number | null,
) =>
  ofSite(events.db, range)
    .where(narrowing)
    .$if(before !== null, (qb) =>
      qb.where(
        sql<SqlBool>`(time_ms < ${before?.time ?? 0} or (time_ms = ${before?.time ?? 0} and id < ${before?.id ?? 0}))`,
      ),
    )
    .select(COLUMNS)
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc')
    .$if(limit !== null, (qb) => qb.limit(limit ?? 0))
    .compile();

/** How far back each look for the newest lines goes, before the rest of the range. */
const NEWEST_WINDOWS_MS = [5 * 60_000, 3_600_000];

/**
 * ClickHouse: the lines that `narrowing` holds for, newest first. The last minutes are read first
 * (a short range of the (site, time) key), then the hour, then the rest: `first` lines, then all.
 */
export async function* newestLines(
  events: Extract<EventStore, { kind: 'clickhouse' }>,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
  first: number,
): AsyncGenerator<PreviewLogLine[]> {
  let toMs = range.toMs;
  for (const span of NEWEST_WINDOWS_MS) {
    const fromMs = Math.max(range.fromMs, range.toMs - span);
    if (fromMs >= toMs) continue;
    const window = { ...range, fromMs, toMs };
    for await (const rows of streamed<PageRow>(events, newestQuery(events, window, narrowing, null, null))) {
      yield rows.map(lineOf);
    }
    toMs = fromMs;
  }
  if (toMs <= range.fromMs) return;
  const rest = { ...range, toMs };
  const last: { cursor: Cursor | null } = { cursor: null };
  for (const limit of [first, null]) {
    let read = 0;
    for await (const rows of streamed<PageRow>(events, newestQuery(events, rest, narrowing, last.cursor, limit))) {
      read += rows.length;
      const tail = rows[rows.length - 1];
      if (tail) last.cursor = { time: Number(tail.time_ms), id: Number(tail.id) };
      yield rows.map(lineOf);
    }
    if (limit !== null && read < limit) return;
  }
}

/** ClickHouse: one query read as a stream (a page would scan the range again from its start). */
async function* streamedLines(
  events: Extract<EventStore, { kind: 'clickhouse' }>,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
): AsyncGenerator<PreviewLogLine[]> {
  const query = ofSite(events.db, range).where(narrowing).select(COLUMNS).orderBy('time_ms').orderBy('id');
  for await (const rows of streamed<PageRow>(events, query.compile())) {
    yield rows.map(lineOf);
  }
}

/** SQLite and PostgreSQL: pages by key (time, id), each starting from the (site_id, time_ms) index. */
async function* pagedLines(
  logs: Kysely<EventDatabase>,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
): AsyncGenerator<PreviewLogLine[]> {
  let after: { time: number; id: number } | null = null;
  for (;;) {
    const from = after;
    const rows = (await ofSite(logs, range)
      .where(narrowing)
      .$if(from !== null, (qb) =>
        qb.where(
          sql<SqlBool>`(time_ms > ${from?.time ?? 0} or (time_ms = ${from?.time ?? 0} and id > ${from?.id ?? 0}))`,
        ),
      )
      .select(COLUMNS)
      .orderBy('time_ms')
      .orderBy('id')
      .limit(PAGE)
      .execute()) as PageRow[];
    const tail = rows[rows.length - 1];
    if (!tail) return;
    yield rows.map((row) => ({ ...row, time_ms: Number(row.time_ms), status: Number(row.status) }));
    if (rows.length < PAGE) return;
    after = { time: Number(tail.time_ms), id: Number(tail.id) };
  }
}
