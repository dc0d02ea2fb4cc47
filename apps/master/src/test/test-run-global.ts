import { randomBytes } from 'node:crypto';
import { dropRunSchemas, TEST_RUN_ENV } from './pg-schemas.ts';

/**
 * Vitest global set-up: names the run (the PostgreSQL schemas its workers make carry the name, and
 * outlive the test file that made them, so the next file of the same worker reuses them) and drops
 * the run's schemas when it ends.
 */
export default function setup(): () => Promise<void> {
  const run = process.env[TEST_RUN_ENV] ?? randomBytes(4).toString('hex');
  process.env[TEST_RUN_ENV] = run;
  return async () => {
    const url = process.env.RAMPART_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
    await dropRunSchemas(url, run).catch(() => undefined); // no PostgreSQL: nothing was made
  };
}
