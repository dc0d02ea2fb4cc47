import type { PowerDnsCredentials } from '@rampart/contracts';
import {
  addressType,
  bare,
  type DnsProvider,
  fqdn,
  onlyDefaultLine,
  providerFetch,
  quoted,
  unquoted,
} from './dns-provider.ts';

/** Line groups' records change on failover: resolvers keep them a minute at most. */
const ADDRESS_TTL = 60;

interface RrSet {
  name: string;
  type: string;
  records: { content: string }[];
}

/** PowerDNS's HTTP API (v1): zones under /api/v1/servers/{server}/zones, records by PATCHing rrsets. */
export function powerDns(credentials: PowerDnsCredentials): DnsProvider {
  const base = `${credentials.url.replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(credentials.server_id ?? 'localhost')}`;
  const call = async (path: string, init: RequestInit = {}) =>
    (
      await providerFetch(
        `${base}${path}`,
        {
          ...init,
          headers: { 'x-api-key': credentials.api_key, 'content-type': 'application/json', accept: 'application/json' },
        },
        (_status, body) => (body as { error?: string } | null)?.error ?? '',
      )
    ).body;
  const zonePath = (zone: string) => `/zones/${encodeURIComponent(fqdn(zone))}`;
  const patch = (zone: string, rrsets: object[]) =>
    call(zonePath(zone), { method: 'PATCH', body: JSON.stringify({ rrsets }) });
  const txtValues = async (zone: string, name: string) => {
    const query = `?rrset_name=${encodeURIComponent(fqdn(name))}&rrset_type=TXT`;
    const { rrsets } = (await call(`${zonePath(zone)}${query}`)) as { rrsets: RrSet[] };
    const rrset = rrsets.find((entry) => entry.type === 'TXT' && bare(entry.name) === bare(name));
    return (rrset?.records ?? []).map((record) => unquoted(record.content));
  };
  const replaceTxt = (zone: string, name: string, values: readonly string[]) =>
    patch(zone, [
      values.length === 0
        ? { name: fqdn(name), type: 'TXT', changetype: 'DELETE' }
        : {
            name: fqdn(name),
            type: 'TXT',
            ttl: 60,
            changetype: 'REPLACE',
            records: values.map((value) => ({ content: quoted(value), disabled: false })),
          },
    ]);
  return {
    async listZones() {
      const zones = (await call('/zones')) as { name: string }[];
      return zones.map((zone) => bare(zone.name)).sort();
    },
    async setCname(zone, name, target) {
      await patch(zone, [
        {
          name: fqdn(name),
          type: 'CNAME',
          ttl: 300,
          changetype: 'REPLACE',
          records: [{ content: fqdn(target), disabled: false }],
        },
      ]);
    },
    async addTxt(zone, name, values) {
      const current = await txtValues(zone, name);
      await replaceTxt(zone, name, [...new Set([...current, ...values])]);
    },
    async removeTxt(zone, name, values) {
      const current = await txtValues(zone, name);
      await replaceTxt(
        zone,
        name,
        current.filter((value) => !values.includes(value)),
      );
    },
    // PowerDNS answers with every record of the set: weights have no meaning without LUA records.
    async setAddresses(zone, name, line, records) {
      onlyDefaultLine('PowerDNS', line);
      await patch(
        zone,
        (['A', 'AAAA'] as const).map((type) => {
          const ips = [...new Set(records.filter((record) => addressType(record.ip) === type).map((r) => r.ip))];
          return ips.length === 0
            ? { name: fqdn(name), type, changetype: 'DELETE' }
            : {
                name: fqdn(name),
                type,
                ttl: ADDRESS_TTL,
                changetype: 'REPLACE',
                records: ips.map((ip) => ({ content: ip, disabled: false })),
              };
        }),
      );
    },
    async listLines() {
      return [];
    },
  };
}
