import { DEFAULT_DNS_TTL, type DnsTtlSettings, type PowerDnsCredentials } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import {
  addressType,
  bare,
  type DnsProvider,
  fqdn,
  onlyDefaultLine,
  providerFetch,
  quoted,
  ttlOf,
  unquoted,
} from './dns-provider.ts';

const ATTEMPTS = 3;
const SERVER_ERROR = /^the DNS API answered 5\d\d/;

interface RrSet {
  name: string;
  type: string;
  ttl?: number;
  records: { content: string; disabled?: boolean }[];
}

/** PowerDNS's HTTP API (v1): zones under /api/v1/servers/{server}/zones, records by PATCHing rrsets. */
export function powerDns(credentials: PowerDnsCredentials, ttl: DnsTtlSettings = DEFAULT_DNS_TTL): DnsProvider {
  const base = `${credentials.url.replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(credentials.server_id ?? 'localhost')}`;
  const once = async (path: string, init: RequestInit) =>
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
  // PowerDNS on its SQLite backend answers 500 while another write holds the database (seen with a
  // few writers at once). Every call here is idempotent (reads, and PATCHes that replace or delete
  // whole record sets), so a 5xx is asked again, twice at most, a little later each time.
  const call = async (path: string, init: RequestInit = {}) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(path, init);
      } catch (error) {
        const busy = error instanceof AppError && SERVER_ERROR.test(error.message);
        if (!busy || attempt === ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  };
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
          ttl: ttlOf(ttl, 'cname'),
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
                ttl: ttlOf(ttl, 'address'),
                changetype: 'REPLACE',
                records: ips.map((ip) => ({ content: ip, disabled: false })),
              };
        }),
      );
    },
    async listLines() {
      return [];
    },
    async listRecords(zone, name) {
      const { rrsets } = (await call(`${zonePath(zone)}?rrset_name=${encodeURIComponent(fqdn(name))}`)) as {
        rrsets: RrSet[];
      };
      return rrsets
        .filter((rrset) => bare(rrset.name) === bare(name))
        .flatMap((rrset) =>
          rrset.records
            .filter((record) => !record.disabled)
            .map((record) => ({
              type: rrset.type,
              value: rrset.type === 'CNAME' ? bare(record.content) : record.content,
              line: null,
              ttl: rrset.ttl ?? 0,
              weight: null,
            })),
        );
    },
    async ttlAt(_zone, kind) {
      return ttlOf(ttl, kind);
    },
  };
}
