import type { ClickHouseClient } from '@clickhouse/client';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  DefaultQueryCompiler,
  type Dialect,
  type DialectAdapter,
  DialectAdapterBase,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { literal } from './literal.ts';

/** Every value is written into the query text as a strictly quoted literal (literal.ts). */
class ClickHouseQueryCompiler extends DefaultQueryCompiler {
  protected override appendValue(value: unknown): void {
    this.append(literal(value));
  }

  protected override appendImmediateValue(value: unknown): void {
    this.append(literal(value));
  }
}

export class ClickHouseAdapter extends DialectAdapterBase {
  override get supportsReturning(): boolean {
    return false;
  }

  override get supportsTransactionalDdl(): boolean {
    return false;
  }

  async acquireMigrationLock(): Promise<void> {}

  async releaseMigrationLock(): Promise<void> {}
}

const READS = /^\s*(select|with|show|describe|exists)\b/i;

class ClickHouseConnection implements DatabaseConnection {
  private readonly client: ClickHouseClient;

  constructor(client: ClickHouseClient) {
    this.client = client;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // The compiler writes literals; a placeholder left in a query would be a bug, not a value.
    if (compiled.parameters.length > 0) throw new Error('a ClickHouse query must not carry parameters');
    if (READS.test(compiled.sql)) {
      const result = await this.client.query({
        query: compiled.sql,
        format: 'JSONEachRow',
        // Numbers arrive as numbers (all our counters stay far below 2^53).
        clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
      });
      return { rows: await result.json<R>() };
    }
    await this.client.command({ query: compiled.sql });
    return { rows: [] };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; the error says so.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming ClickHouse queries is not supported');
  }
}

class ClickHouseDriver implements Driver {
  private readonly client: ClickHouseClient;
  private readonly connection: ClickHouseConnection;

  constructor(client: ClickHouseClient) {
    this.client = client;
    this.connection = new ClickHouseConnection(client);
  }

  async init(): Promise<void> {}

  // Queries go over HTTP, each on its own: one connection object serves them all at once.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('ClickHouse has no transactions');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Kysely over ClickHouse's HTTP interface: the log repositories' SELECTs run unchanged (standard
 * SQL with double-quoted names); writes that need ClickHouse's own forms (bulk inserts, partitions)
 * go through the client directly.
 */
export class ClickHouseDialect implements Dialect {
  private readonly client: ClickHouseClient;

  constructor(client: ClickHouseClient) {
    this.client = client;
  }

  createAdapter(): DialectAdapter {
    return new ClickHouseAdapter();
  }

  createDriver(): Driver {
    return new ClickHouseDriver(this.client);
  }

  createQueryCompiler(): QueryCompiler {
    return new ClickHouseQueryCompiler();
  }

  createIntrospector(): DatabaseIntrospector {
    throw new Error('ClickHouse schema introspection is not supported');
  }
}

/** Whether a Kysely instance talks to ClickHouse (the few queries that differ ask this). */
export const isClickHouse = (db: Pick<Kysely<object>, 'getExecutor'>): boolean =>
  db.getExecutor().adapter instanceof ClickHouseAdapter;
