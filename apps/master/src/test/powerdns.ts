import { inject } from 'vitest';
import { launchPowerDns, type PowerDns, powerDnsClient } from './powerdns-server.ts';

export type { PowerDns } from './powerdns-server.ts';

/**
 * A real PowerDNS for a test file: the one the project started once per run (see
 * `powerdns-global.ts`; each file makes zones of its own and deletes them on close), or, where no
 * project started one, a server of the file's own.
 */
export async function startPowerDns(): Promise<PowerDns> {
  const shared = inject('powerDns');
  if (!shared) return launchPowerDns();
  const client = powerDnsClient(shared, async () => {
    await client.deleteZones();
  });
  return client;
}
