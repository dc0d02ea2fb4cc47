import { DEFAULT_DNS_TTL, DnsTtlSettings, PERMISSIONS } from '@rampart/contracts';
import type { ConfigDefinition } from '../settings/config-definition.ts';

/**
 * `global-0-dns-ttl`, the record TTLs of /node/dns. Providers read it each time one is built, so the
 * next publishing writes it; POST /v1/node-groups/drift/repair republishes every group at once.
 */
export const DNS_TTL: ConfigDefinition<typeof DnsTtlSettings> = {
  scope_name: 'global',
  scope_id: 0,
  type: 'dns',
  name: 'ttl',
  schema: DnsTtlSettings,
  fallback: DEFAULT_DNS_TTL,
  permission: PERMISSIONS.adminNode,
  description:
    'TTL of published records, 1 to 86400 seconds, raised to each provider’s minimum (Cloudflare 60 or 1 = automatic, DNSPod 600, AliDNS its edition’s): {address_ttl (line groups’ A/AAAA), cname_ttl (sites’ CNAMEs)}. Applied at the next publishing; POST /v1/node-groups/drift/repair republishes now',
  edge: false,
};
