import { buildApp } from '../apps/master/src/app.ts';
import { readConfig } from '../apps/master/src/config.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { tempDir } from './support.ts';

export const BENCH_ADMIN_PASSWORD = 'bench-admin-pass';

/**
 * The master in this process on a loopback port, with a fresh SQLite data directory the bench can
 * also reach; or, given a postgres:// URL and a schema, on that schema of PostgreSQL. `env` adds
 * settings (RAMPART_LOGS_URL for the ClickHouse logs store).
 */
export async function startInProcessMaster(
  prefix: string,
  postgres?: { url: string; schema: string },
  env: Record<string, string> = {},
) {
  const dataDir = tempDir(prefix);
  const database = openDatabase({ dataDir, ...postgres });
  const config = readConfig({ RAMPART_DATA_DIR: dataDir, RAMPART_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, ...env });
  const app = await buildApp(config, {
    logger: false,
    database,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, database, dataDir, base };
}
