import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const SCHEMA_PREFIX = 'rampart_test_';

/**
 * The test run's id (set by the run's global set-up, test-run-global.ts): every schema this run makes
 * carries it, and the run drops them all at its end. Schemas outlive a test file: the files a worker
 * runs one after another reuse its migrated schemas.
 */
export const TEST_RUN_ENV = 'RAMPART_TEST_RUN';
const runId = () => process.env[TEST_RUN_ENV] ?? 'solo';

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const newSchemaName = () =>
  `${SCHEMA_PREFIX}${Math.floor(Date.now() / 1000)}_${runId()}_${randomBytes(4).toString('hex')}`;

/** Drops every schema a run made; the run's global teardown calls it. */
export async function dropRunSchemas(url: string, run: string) {
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      'select schema_name as name from information_schema.schemata where schema_name like $1',
      [`${SCHEMA_PREFIX}%\\_${run}\\_%`],
    );
    for (const { name } of rows) await client.query(`drop schema if exists ${quoteIdent(name)} cascade`);
  });
}
