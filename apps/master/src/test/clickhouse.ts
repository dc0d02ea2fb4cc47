import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
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
