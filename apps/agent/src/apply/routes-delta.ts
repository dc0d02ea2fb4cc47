import type { RoutesData } from '../render/tree.ts';

/**
 * The routing data a swap left live, by part: each site's and certificate's JSON, and the protection's
 * (which the edge compiles for all sites together).
 */
export interface RoutesIndex {
  token: string;
  sites: Map<number, string>;
  certs: Map<string, string>;
  protection: string;
}

export function indexRoutes(routes: RoutesData): RoutesIndex {
  const sites = new Map<number, string>();
  for (const site of routes.sites) sites.set(site.id, JSON.stringify(site));
  const certs = new Map<string, string>();
  for (const [id, pair] of Object.entries(routes.certs)) certs.set(id, JSON.stringify(pair));
  return { token: routes.token, sites, certs, protection: JSON.stringify(routes.protection) };
}

/** The first line of a swap: only the sites and certificates that changed or went since `before`. */
export interface RoutesDelta extends Omit<RoutesData, 'sites' | 'certs' | 'protection'> {
  delta: {
    /** The token of the table the delta applies to; a worker serving another one takes the whole data. */
    base: string;
    sites: RoutesData['sites'];
    removed_sites: number[];
    certs: RoutesData['certs'];
    removed_certs: string[];
  };
}

/**
 * The delta from `before` to `after` (indexed as `index`), or null when the protection changed: the
 * edge compiles rule groups, ACLs and bans for every site at once, so such a change goes whole.
 */
export function routesDelta(before: RoutesIndex, after: RoutesData, index: RoutesIndex): RoutesDelta | null {
  if (before.protection !== index.protection) return null;
  const { sites: _sites, certs: _certs, protection: _protection, ...head } = after;
  const sites = after.sites.filter((site) => before.sites.get(site.id) !== index.sites.get(site.id));
  const removedSites = [...before.sites.keys()].filter((id) => !index.sites.has(id));
  const certs: RoutesData['certs'] = {};
  for (const [id, pair] of Object.entries(after.certs))
    if (before.certs.get(id) !== index.certs.get(id)) certs[id] = pair;
  const removedCerts = [...before.certs.keys()].filter((id) => !index.certs.has(id));
  return {
    ...head,
    delta: { base: before.token, sites, removed_sites: removedSites, certs, removed_certs: removedCerts },
  };
}
