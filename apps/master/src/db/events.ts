import { Kysely } from 'kysely';
import { ClickHouseDialect } from './clickhouse/dialect.ts';
import { type ClickHouseStore, openClickHouse } from './clickhouse/store.ts';
import type { EventDatabase, LogDatabase } from './logs-schema.ts';

/**
 * Where the access and stream logs and their rollups live: the logs database (SQLite's second
 * file, or PostgreSQL), or ClickHouse when RAMPART_LOGS_URL names one. The monitor repositories read
 * either through `db`; the ingest and retention write each in its own way.
 */
export type EventStore =
  | { kind: 'sql'; db: Kysely<EventDatabase>; close(): Promise<void> }
  | { kind: 'clickhouse'; db: Kysely<EventDatabase>; clickhouse: ClickHouseStore; close(): Promise<void> };

export async function openEventStore(logsUrl: string | undefined, logs: Kysely<LogDatabase>): Promise<EventStore> {
  if (!logsUrl) {
    // The same handle: the logs database holds these tables too. Closing it is its owner's part.
    return { kind: 'sql', db: logs as unknown as Kysely<EventDatabase>, close: async () => undefined };
  }
  const clickhouse = await openClickHouse(logsUrl);
  const db = new Kysely<EventDatabase>({ dialect: new ClickHouseDialect(clickhouse.client) });
  return { kind: 'clickhouse', db, clickhouse, close: () => db.destroy() };
}
