import { inject } from 'vitest';
import { launchPowerDns, type PowerDns, type PowerDnsAddress, powerDnsClient } from './powerdns-server.ts';

// The PowerDNS address the global set-up provides (here, not beside the server: benchmarks use that
// module without Vitest).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The PowerDNS that the test project's global set-up started once for the whole run. */
    powerDns?: PowerDnsAddress;
  }
}

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
