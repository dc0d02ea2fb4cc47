import { type CloudflareCredentials, DEFAULT_DNS_TTL, type DnsTtlSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import {
  addressType,
  bare,
  type DnsProvider,
  onlyDefaultLine,
  providerFetch,
  quoted,
  type RecordKind,
  ttlOf,
  unquoted,
} from './dns-provider.ts';

interface CloudflareAnswer<T> {
  success: boolean;
  errors: { code: number; message: string }[];
  result: T;
  result_info?: { page: number; total_pages: number };
}

interface DnsRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
}

/** Cloudflare's TTLs: 1 means automatic, else 60 to 86400 seconds (30 on Enterprise zones, not assumed). */
const AUTOMATIC_TTL = 1;
const MIN_TTL = 60;
const cloudflareTtl = (ttl: DnsTtlSettings, kind: RecordKind) => {
  const wanted = ttlOf(ttl, kind);
  return wanted === AUTOMATIC_TTL ? AUTOMATIC_TTL : Math.max(MIN_TTL, wanted);
};

// Cloudflare's codes for a token that is invalid or lacks the permission.
const AUTH_ERRORS = new Set([6003, 9103, 9106, 9109, 10000]);

/**
 * Cloudflare's API v4 with an API token (Bearer): zones by page from /zones, records under
 * /zones/{zone id}/dns_records. TXT content is sent quoted, as Cloudflare asks.
 */
export function cloudflare(
  credentials: CloudflareCredentials,
  endpoint: string,
  ttl: DnsTtlSettings = DEFAULT_DNS_TTL,
): DnsProvider {
  const base = endpoint.replace(/\/$/, '');
  const call = async <T>(path: string, init: RequestInit = {}): Promise<CloudflareAnswer<T>> => {
    const { body } = await providerFetch(
      `${base}${path}`,
      {
        ...init,
        headers: {
          authorization: `Bearer ${credentials.api_token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
      },
      (_status, answer) => (answer as CloudflareAnswer<unknown> | null)?.errors?.[0]?.message ?? '',
    );
    const answer = body as CloudflareAnswer<T>;
    if (!answer?.success) {
      const [first] = answer?.errors ?? [];
      if (first && AUTH_ERRORS.has(first.code)) throw new AppError('conflict', 'the DNS API refused the API key');
      throw new AppError('conflict', `the DNS API refused the call: ${first?.message ?? 'no reason given'}`);
    }
    return answer;
  };
  const zoneIds = new Map<string, string>();
  const listZones = async () => {
    const zones: string[] = [];
    for (let page = 1; page <= 100; page++) {
      const answer = await call<{ id: string; name: string }[]>(`/zones?per_page=50&page=${page}`);
      for (const zone of answer.result) {
        zoneIds.set(bare(zone.name), zone.id);
        zones.push(bare(zone.name));
      }
      if (page >= (answer.result_info?.total_pages ?? 1)) break;
    }
    return zones.sort();
  };
  const zoneId = async (zone: string) => {
    if (!zoneIds.has(zone)) await listZones();
    const id = zoneIds.get(zone);
    if (!id) throw new AppError('conflict', `the DNS API has no zone ${zone}`);
    return id;
  };
  const records = async (zone: string, type: string, name: string) => {
    const query = `type=${type}&name=${encodeURIComponent(name)}&per_page=100`;
    return (await call<DnsRecord[]>(`/zones/${await zoneId(zone)}/dns_records?${query}`)).result;
  };
  const update = async (zone: string, id: string, record: object) =>
    call(`/zones/${await zoneId(zone)}/dns_records/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: JSON.stringify(record),
    });
  const create = async (zone: string, record: object) =>
    call(`/zones/${await zoneId(zone)}/dns_records`, { method: 'POST', body: JSON.stringify(record) });
  const remove = async (zone: string, id: string) =>
    call(`/zones/${await zoneId(zone)}/dns_records/${encodeURIComponent(id)}`, { method: 'DELETE' });

  return {
    listZones,
    async setCname(zone, name, target) {
      const record = { type: 'CNAME', name, content: target, ttl: cloudflareTtl(ttl, 'cname'), proxied: false };
      const [existing] = await records(zone, 'CNAME', name);
      if (!existing) {
        await create(zone, record);
        return;
      }
      await update(zone, existing.id, record);
    },
    async addTxt(zone, name, values) {
      const present = (await records(zone, 'TXT', name)).map((record) => unquoted(record.content));
      for (const value of values.filter((entry) => !present.includes(entry))) {
        await create(zone, { type: 'TXT', name, content: quoted(value), ttl: 60 });
      }
    },
    async removeTxt(zone, name, values) {
      for (const record of await records(zone, 'TXT', name)) {
        if (values.includes(unquoted(record.content))) await remove(zone, record.id);
      }
    },
    // Cloudflare answers every resolver alike and has no record weights: one set per name and type.
    async setAddresses(zone, name, line, wanted) {
      onlyDefaultLine('Cloudflare', line);
      const addressTtl = cloudflareTtl(ttl, 'address');
      for (const type of ['A', 'AAAA'] as const) {
        const ips = new Set(wanted.filter((record) => addressType(record.ip) === type).map((record) => record.ip));
        const present = await records(zone, type, name);
        for (const record of present) {
          if (!ips.has(record.content)) await remove(zone, record.id);
          else if (record.ttl !== addressTtl)
            await update(zone, record.id, { type, name, content: record.content, ttl: addressTtl, proxied: false });
        }
        const kept = new Set(present.map((record) => record.content));
        for (const ip of ips) {
          if (!kept.has(ip)) await create(zone, { type, name, content: ip, ttl: addressTtl, proxied: false });
        }
      }
    },
    async listLines() {
      return [];
    },
    async listRecords(zone, name) {
      const found: DnsRecord[] = [];
      for (let page = 1; page <= 100; page++) {
        const query = `name=${encodeURIComponent(name)}&per_page=100&page=${page}`;
        const answer = await call<DnsRecord[]>(`/zones/${await zoneId(zone)}/dns_records?${query}`);
        found.push(...answer.result);
        if (page >= (answer.result_info?.total_pages ?? 1)) break;
      }
      return found.map((record) => ({
        type: record.type,
        value: record.type === 'CNAME' ? bare(record.content) : record.content,
        line: null,
        ttl: record.ttl,
        weight: null,
      }));
    },
    async ttlAt(_zone, kind) {
      return cloudflareTtl(ttl, kind);
    },
  };
}
