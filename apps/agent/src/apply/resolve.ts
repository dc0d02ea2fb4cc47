import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ApplyError, EdgeSnapshot } from '@rampart/contracts';

/** Addresses of a host name; throws (or answers none) when it does not resolve. */
export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface ResolvedOrigins {
  /** Sites and streams with an origin host name that does not resolve. */
  errors: ApplyError[];
  /** The addresses of every origin host name that resolved. */
  addresses: Map<string, string[]>;
}

/**
 * Looks up every origin host name of the snapshot once. The edge's balancer connects to addresses
 * (as nginx resolves upstream names once, when it loads a config); a site or stream whose origin
 * name does not resolve is left out and reported instead of failing the whole config.
 */
export async function resolveOrigins(
  snapshot: EdgeSnapshot,
  resolve: Lookup = systemLookup,
  timeoutMs = 3000,
): Promise<ResolvedOrigins> {
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
  const addresses = new Map<string, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const found = await Promise.race([
        resolve(name).then(
          (list) => (Array.isArray(list) ? list.filter((address) => isIP(address) !== 0) : []),
          () => [],
        ),
        new Promise<string[]>((done) => setTimeout(() => done([]), timeoutMs).unref()),
      ]);
      if (found.length > 0) addresses.set(name, found);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, names.length) }, worker));
  const errors = owners.flatMap(({ kind, id, hosts }) => {
    const bad = hosts.filter((host) => !addresses.has(host));
    return bad.length === 0 ? [] : [{ kind, id, error: `origin host ${bad.join(', ')} does not resolve` }];
  });
  return { errors, addresses };
}
