import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { CLICKHOUSE_ADDED_COLUMNS, CLICKHOUSE_SCHEMA } from './schema.ts';

export interface ClickHouseStore {
  client: ClickHouseClient;
  database: string;
  /** Appends rows in one insert (JSONEachRow: the values travel as data, not as query text). */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  close(): Promise<void>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** http(s)://[user:password@]host:port/database, the database named by the path (default: rampart). */
export function parseLogsUrl(raw: string): { url: string; database: string; username: string; password: string } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error('RAMPART_LOGS_URL must be a URL such as http://127.0.0.1:8123/rampart');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error('RAMPART_LOGS_URL must start with http:// or https:// (ClickHouse HTTP interface)');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'rampart';
  if (!NAME.test(database)) {
    throw new Error('RAMPART_LOGS_URL: the database (the path) must be letters, digits and _, starting with a letter');
  }
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    database,
    username: decodeURIComponent(parsed.username) || 'default',
    password: decodeURIComponent(parsed.password),
  };
}

/** Opens the ClickHouse logs store: makes its database and tables where missing. */
export async function openClickHouse(raw: string): Promise<ClickHouseStore> {
  const { url, database, username, password } = parseLogsUrl(raw);
  const setup = createClient({ url, username, password, database: 'default' });
  try {
    await setup.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
  } finally {
    await setup.close();
  }
  const client = createClient({ url, username, password, database, request_timeout: 60_000 });
  for (const statement of CLICKHOUSE_SCHEMA) await client.command({ query: statement });
  for (const { table, column, type } of CLICKHOUSE_ADDED_COLUMNS) {
    const present = async () => {
      const result = await client.query({
        query: `SELECT count() AS n FROM system.columns WHERE database = '${database}' AND table = '${table}' AND name = '${column}'`,
        format: 'JSONEachRow',
      });
      const [row] = await result.json<{ n: string | number }>();
      return Number(row?.n ?? 0) > 0;
    };
    if (await present()) continue;
    // Another master may add it at the same moment: only a column still missing is an error.
    await client.command({ query: `ALTER TABLE ${table} ADD COLUMN ${column} ${type}` }).catch(async (error) => {
      if (!(await present())) throw error;
    });
  }
  return {
    client,
    database,
    async insert(table, rows) {
      if (rows.length === 0) return;
      await client.insert({ table, values: rows as Record<string, unknown>[], format: 'JSONEachRow' });
    },
    close: () => client.close(),
  };
}
