import type { TestProject } from 'vitest/node';
import { launchClickHouse } from './clickhouse-server.ts';

/**
 * Vitest global set-up: one ClickHouse for every file of the unit project, started once per run;
 * each test app makes and drops its own database in it (clickhouse.ts). Not installed: the set-up
 * fails naming the package, since the ClickHouse tests must run, not be skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchClickHouse();
  project.provide('clickHouseUrl', server.httpUrl);
  return () => server.close();
}
