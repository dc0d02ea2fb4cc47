import { isIP } from 'node:net';

/** A domain spelled backwards: the names under a zone then share a prefix (site_domains.reversed). */
export const reversedDomain = (domain: string) => [...domain].reverse().join('');

/**
 * Whether a site domain is an IP literal (v4, v6, bracketed or not). Edges route by Host, so a site
 * "named" 127.0.0.1 would take every request sent to an edge by address. A last label of digits is
 * no DNS name either (no top-level domain is numeric) and catches forms like 127.1.
 */
export function isIpLiteral(domain: string): boolean {
  const host = domain.replace(/^\*\./, '').replace(/^\[(.*)\]$/, '$1');
  return isIP(host) !== 0 || /(^|\.)[0-9]+$/.test(host);
}

/** The zone a wildcard covers: `*.example.com` covers every name under example.com, at any depth (as nginx does). */
export const wildcardZone = (domain: string) => (domain.startsWith('*.') ? domain.slice(2) : undefined);

/**
 * The wildcards that would cover a domain: `*.P` for every zone P strictly above the name. For
 * `a.b.example.com`: *.b.example.com, *.example.com, *.com. A wildcard's own name is left out (an
 * equal claim is a plain duplicate).
 */
export function coveringWildcards(domain: string): string[] {
  const labels = (wildcardZone(domain) ?? domain).split('.');
  const wildcards: string[] = [];
  for (let i = 1; i < labels.length; i++) wildcards.push(`*.${labels.slice(i).join('.')}`);
  return wildcards;
}
