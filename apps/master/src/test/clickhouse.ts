import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { inject } from 'vitest';
import { isClickHouse } from '../db/clickhouse/dialect.ts';
import { DIALECTS } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    clickHouseUrl: string;
  }
}

/** Where a test app stores its logs: the logs database of its dialect, or a ClickHouse database. */
export interface LogStoreTarget {
  store: string;
  dialect: (typeof DIALECTS)[number]['dialect'];
  url?: string;
  /** A fresh ClickHouse database's URL (RAMPART_LOGS_URL) for each app. */
  logsUrl?: () => string;
}

const clickHouseDatabase = () => `${inject('clickHouseUrl')}/t_${Date.now()}_${randomBytes(4).toString('hex')}`;

/**
 * The stores the monitor tests run on: SQLite and PostgreSQL as usual, and SQLite with its logs and
 * rollups in the run's ClickHouse: one fixture, the same answers from all three.
 */
export const LOG_STORES: readonly LogStoreTarget[] = [
  ...DIALECTS.map((target) => ({ ...target, store: target.dialect })),
  { store: 'clickhouse', dialect: 'sqlite', logsUrl: clickHouseDatabase },
];

/** The env a test app needs for its store. */
export const logStoreEnv = (target: LogStoreTarget): Record<string, string> =>
  target.logsUrl ? { RAMPART_LOGS_URL: target.logsUrl() } : {};

/** A raw query's interval start in seconds from `time_ms` (ClickHouse's `/` divides as floats). */
export const bucketOf = (db: Pick<Kysely<object>, 'getExecutor'>, seconds: number) =>
  isClickHouse(db)
    ? sql<number>`intDiv(time_ms, ${sql.lit(seconds * 1000)}) * ${sql.lit(seconds)}`
    : sql<number>`(time_ms / ${sql.lit(seconds * 1000)}) * ${sql.lit(seconds)}`;
