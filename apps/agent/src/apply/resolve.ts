import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ApplyError, EdgeSnapshot } from '@rampart/contracts';

type Lookup = (host: string) => Promise<unknown>;

/**
 * Sites and streams with an origin host name that does not resolve. nginx resolves upstream
 * names when it loads the config and refuses the whole config for one that fails; finding them
 * all up front leaves them out in one go instead of one `nginx -t` round each.
 */
export async function unresolvableOrigins(
  snapshot: EdgeSnapshot,
  resolve: Lookup = (host: string) => lookup(host),
  timeoutMs = 3000,
): Promise<ApplyError[]> {
  const owners: Array<{ kind: 'site' | 'stream'; id: number; hosts: string[] }> = [];
  const collect = (kind: 'site' | 'stream', items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const item of items as Array<{ id?: unknown; origins?: unknown; enabled?: unknown }>) {
      if (typeof item?.id !== 'number' || item.enabled === false || !Array.isArray(item.origins)) continue;
      const hosts = (item.origins as Array<{ address?: unknown }>)
        .map((origin) => origin?.address)
        .filter((address): address is string => typeof address === 'string' && isIP(address) === 0);
      if (hosts.length > 0) owners.push({ kind, id: item.id, hosts });
    }
  };
  collect('site', snapshot.sites);
  collect('stream', snapshot.streams);
  const names = [...new Set(owners.flatMap((owner) => owner.hosts))];
  const failed = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const resolved = await Promise.race([
        resolve(name).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((done) => setTimeout(() => done(false), timeoutMs).unref()),
      ]);
      if (!resolved) failed.add(name);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, names.length) }, worker));
  return owners.flatMap(({ kind, id, hosts }) => {
    const bad = hosts.filter((host) => failed.has(host));
    return bad.length === 0 ? [] : [{ kind, id, error: `origin host ${bad.join(', ')} does not resolve` }];
  });
}
