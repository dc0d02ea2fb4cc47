import type {
  AlidnsCredentials,
  CloudflareCredentials,
  DnsApiCredentials,
  DnsProviderName,
  DnspodCredentials,
  DnsTtlSettings,
  PowerDnsCredentials,
} from '@rampart/contracts';
import { alidns } from './alidns.ts';
import { cloudflare } from './cloudflare.ts';
import type { DnsProvider } from './dns-provider.ts';
import { dnspod } from './dnspod.ts';
import { powerDns } from './powerdns.ts';

/** Where the hosted providers' APIs live (settings, so a proxy or a test server can stand in). */
export interface ProviderEndpoints {
  cloudflare: string;
  dnspod: string;
  alidns: string;
}

export function dnsProvider(
  provider: DnsProviderName,
  credentials: DnsApiCredentials,
  endpoints: ProviderEndpoints,
  ttl: DnsTtlSettings,
): DnsProvider {
  switch (provider) {
    case 'powerdns':
      return powerDns(credentials as PowerDnsCredentials, ttl);
    case 'cloudflare':
      return cloudflare(credentials as CloudflareCredentials, endpoints.cloudflare, ttl);
    case 'dnspod':
      return dnspod(credentials as DnspodCredentials, endpoints.dnspod, ttl);
    case 'alidns':
      return alidns(credentials as AlidnsCredentials, endpoints.alidns, ttl);
  }
}

export const isProviderName = (name: string): name is DnsProviderName =>
  name === 'powerdns' || name === 'cloudflare' || name === 'dnspod' || name === 'alidns';

/** The zone a domain lives in: the longest zone name it ends with. */
export function zoneOf(domain: string, zones: readonly string[]): string | undefined {
  const name = domain.replace(/^\*\./, 'x.');
  return [...zones].sort((a, b) => b.length - a.length).find((zone) => name === zone || name.endsWith(`.${zone}`));
}
