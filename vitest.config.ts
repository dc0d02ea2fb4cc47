import { defineConfig } from 'vitest/config';

// The run's name (its PostgreSQL schemas carry it and go at its end), and one PowerDNS per test
// project and run, shared by its files (each makes and deletes its own zones).
const globalSetup = ['apps/master/src/test/test-run-global.ts', 'apps/master/src/test/powerdns-global.ts'];

export default defineConfig({
  test: {
    // Two files at a time even on a 2-core machine (the default would be one): most files wait on
    // databases, child processes and a browser, and every file owns its ports, schema and data dir.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          // The monitor tests run on ClickHouse too: one private instance per run.
          globalSetup: [...globalSetup, 'apps/master/src/test/clickhouse-global.ts'],
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/master/src/**/*.test.ts',
            'apps/agent/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
          // A worker keeps its modules, migrated databases and schemas from one file to the next:
          // importing the master's thousand modules and migrating PostgreSQL once per file took half
          // of this project's time. Files own their ports, data dirs and schemas, so none sees
          // another's state.
          isolate: false,
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      './apps/dashboard/vitest.config.ts',
      {
        test: {
          name: 'edge',
          globalSetup,
          include: ['apps/agent/test/**/*.test.ts'],
          environment: 'node',
          expect: { poll: { timeout: 30_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          globalSetup,
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          // expect.poll gives up after 1 s by default: too soon for a page on a busy machine.
          expect: { poll: { timeout: 30_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each spec file starts its own master (free port, own data dir): two at a time. A worker
          // keeps its modules and its browser from one file to the next (each file gets fresh
          // contexts): the project keeps both cores busy, and each launch and import cost both.
          isolate: false,
        },
      },
    ],
  },
});
