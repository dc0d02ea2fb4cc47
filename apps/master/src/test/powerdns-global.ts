import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { launchPowerDns, PDNS_SERVER } from './powerdns-server.ts';

/**
 * Vitest global set-up: one PowerDNS for every file of a test project, started once per run. Where
 * PowerDNS is not installed nothing is shared, and only the files that need it fail, naming it.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!existsSync(PDNS_SERVER)) return undefined;
  const server = await launchPowerDns();
  project.provide('powerDns', { apiUrl: server.apiUrl, apiKey: server.apiKey, dnsAddress: server.dnsAddress });
  return () => server.close();
}
