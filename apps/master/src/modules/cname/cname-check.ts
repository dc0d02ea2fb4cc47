import { Resolver } from 'node:dns/promises';

export interface DomainCheck {
  domain: string;
  /** What the domain's CNAME record names, or null when it has none. */
  cname: string | null;
  points: boolean;
  /** Why it does not point at the target; empty when it does. */
  reason: string;
}

const REASONS: Record<string, string> = {
  ENODATA: 'has no CNAME record',
  ENOTFOUND: 'does not exist in DNS',
  ETIMEOUT: 'the DNS server did not answer',
  ECONNREFUSED: 'the DNS server refused the query',
  ESERVFAIL: 'the DNS server failed to answer',
};

/** A wildcard domain is checked through one name under it, which the wildcard record must cover. */
const probeName = (domain: string) => (domain.startsWith('*.') ? `rampart-check.${domain.slice(2)}` : domain);
const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Asks the DNS (the configured server, else the system's resolver) what each domain's CNAME record
 * names, and whether that is the site's target.
 */
export async function checkCnames(domains: readonly string[], target: string, server: string): Promise<DomainCheck[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (server) resolver.setServers([server]);
  return Promise.all(
    domains.map(async (domain): Promise<DomainCheck> => {
      try {
        const [cname = null] = await resolver.resolveCname(probeName(domain));
        const points = cname !== null && bare(cname) === bare(target);
        return { domain, cname, points, reason: points ? '' : `points to ${cname}, not to ${target}` };
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        return {
          domain,
          cname: null,
          points: false,
          reason: REASONS[code] ?? `could not be resolved (${code || 'error'})`,
        };
      }
    }),
  );
}
