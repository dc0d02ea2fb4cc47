import { AppError } from '../../errors.ts';

/** What Rampart needs from a DNS provider: the account's zones, and one CNAME record set. */
export interface DnsProvider {
  listZones(): Promise<string[]>;
  setCname(zone: string, name: string, target: string): Promise<void>;
}

export interface PowerDnsCredentials {
  url: string;
  api_key: string;
  server_id?: string;
}

const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);
const bare = (name: string) => name.replace(/\.$/, '');

/** PowerDNS's HTTP API (v1): zones under /api/v1/servers/{server}/zones, records by PATCHing rrsets. */
export function powerDns(credentials: PowerDnsCredentials): DnsProvider {
  const base = `${credentials.url.replace(/\/$/, '')}/api/v1/servers/${encodeURIComponent(credentials.server_id ?? 'localhost')}`;
  const call = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { 'x-api-key': credentials.api_key, 'content-type': 'application/json', accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new AppError('conflict', `the DNS API did not answer: ${error instanceof Error ? error.message : 'error'}`);
    }
    if (response.status === 401 || response.status === 403)
      throw new AppError('conflict', 'the DNS API refused the API key');
    if (!response.ok) {
      const detail = ((await response.json().catch(() => ({}))) as { error?: string }).error ?? '';
      throw new AppError(
        'conflict',
        `the DNS API answered ${response.status}${detail ? `: ${detail.slice(0, 200)}` : ''}`,
      );
    }
    return response;
  };
  return {
    async listZones() {
      const zones = (await (await call('/zones')).json()) as { name: string }[];
      return zones.map((zone) => bare(zone.name)).sort();
    },
    async setCname(zone, name, target) {
      await call(`/zones/${encodeURIComponent(fqdn(zone))}`, {
        method: 'PATCH',
        body: JSON.stringify({
          rrsets: [
            {
              name: fqdn(name),
              type: 'CNAME',
              ttl: 300,
              changetype: 'REPLACE',
              records: [{ content: fqdn(target), disabled: false }],
            },
          ],
        }),
      });
    },
  };
}

/** The zone a domain lives in: the longest zone name it ends with. */
export function zoneOf(domain: string, zones: readonly string[]): string | undefined {
  const name = domain.replace(/^\*\./, 'x.');
  return [...zones].sort((a, b) => b.length - a.length).find((zone) => name === zone || name.endsWith(`.${zone}`));
}
