import { createHmac, randomUUID } from 'node:crypto';
import { type AlidnsCredentials, DEFAULT_DNS_TTL, type DnsTtlSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { addressType, bare, type DnsProvider, providerFetch, type RecordKind, ttlOf } from './dns-provider.ts';

const VERSION = '2015-01-09';
/** Records are made on AliDNS's default line. */
const DEFAULT_LINE = 'default';
/** The smallest TTL of every edition (the free one's): TXT records use it, and zones whose edition is not answered. */
const TTL = 600;
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

/** RFC 3986 percent-encoding as Alibaba Cloud signs it: only A-Z a-z 0-9 - _ . ~ stay as they are. */
export const percentEncode = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Alibaba Cloud's RPC signature, version 1.0 (HMAC-SHA1): the parameters sorted by name and
 * percent-encoded into a canonical query, `METHOD&%2F&` + that query encoded once more, signed with
 * the AccessKey secret followed by `&`, in Base64.
 */
export function rpcSignature(secret: string, method: 'GET' | 'POST', params: Readonly<Record<string, string>>): string {
  const canonical = Object.keys(params)
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

interface AliError {
  Code?: string;
  Message?: string;
}

interface AliRecord {
  RecordId: string;
  RR: string;
  Type: string;
  Value: string;
  Line?: string;
  TTL?: number;
  Weight?: number;
}

/** Codes AliDNS answers when the AccessKey is unknown, disabled or signs wrongly. */
const KEY_REFUSALS = /^(InvalidAccessKeyId|SignatureDoesNotMatch|IncompleteSignature|Forbidden\.AccessKey)/;

/**
 * Alibaba Cloud DNS (alidns.aliyuncs.com, API version 2015-01-09): RPC calls as signed GET query
 * strings, answers in JSON.
 */
export function alidns(
  credentials: AlidnsCredentials,
  endpoint: string,
  ttl: DnsTtlSettings = DEFAULT_DNS_TTL,
): DnsProvider {
  const call = async <T>(action: string, params: Record<string, string>): Promise<T> => {
    const all: Record<string, string> = {
      ...params,
      Action: action,
      Format: 'JSON',
      Version: VERSION,
      AccessKeyId: credentials.access_key_id,
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      SignatureNonce: randomUUID(),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    const signature = rpcSignature(credentials.access_key_secret, 'GET', all);
    const query = Object.entries({ ...all, Signature: signature })
      .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
      .join('&');
    const url = new URL(endpoint);
    url.search = query;
    const { body } = await providerFetch(
      url.href,
      { method: 'GET' },
      (_status, answer) => {
        const error = (answer ?? {}) as AliError;
        return error.Code ? `${error.Message ?? ''} (${error.Code})` : '';
      },
      (_status, answer) => KEY_REFUSALS.test((answer as AliError | null)?.Code ?? ''),
    );
    if (body === null || typeof body !== 'object') throw new AppError('conflict', 'the DNS API answered without JSON');
    return body as T;
  };
  /** AliDNS names records relative to the zone (RR), the apex as @. */
  const rr = (zone: string, name: string) => (bare(name) === zone ? '@' : bare(name).slice(0, -zone.length - 1));
  const records = async (zone: string, type: string, name: string) => {
    const answer = await call<{ DomainRecords?: { Record?: AliRecord[] } }>('DescribeSubDomainRecords', {
      SubDomain: bare(name),
      DomainName: zone,
      Type: type,
      PageSize: '500',
    });
    return answer.DomainRecords?.Record ?? [];
  };
  // Each edition has its smallest TTL (DescribeDomainInfo's MinTtl with the detail attributes); a key
  // not allowed that read publishes with every edition's minimum rather than not at all.
  const minimums = new Map<string, number>();
  const ttlAt = async (zone: string, kind: RecordKind) => {
    if (!minimums.has(zone)) {
      const info = await call<{ MinTtl?: number }>('DescribeDomainInfo', {
        DomainName: zone,
        NeedDetailAttributes: 'true',
      }).catch(() => ({ MinTtl: undefined }));
      minimums.set(zone, Number(info.MinTtl) > 0 ? Number(info.MinTtl) : TTL);
    }
    return ttlOf(ttl, kind, minimums.get(zone));
  };
  const add = (zone: string, name: string, type: string, value: string, options: { line?: string; ttl?: number }) =>
    call<{ RecordId: string }>('AddDomainRecord', {
      DomainName: zone,
      RR: rr(zone, name),
      Type: type,
      Value: value,
      TTL: String(options.ttl ?? TTL),
      ...(options.line !== undefined && { Line: options.line }),
    });
  const lineRecords = async (zone: string, type: string, name: string, line: string) => {
    const answer = await call<{ DomainRecords?: { Record?: AliRecord[] } }>('DescribeSubDomainRecords', {
      SubDomain: bare(name),
      DomainName: zone,
      Type: type,
      Line: line,
      PageSize: '500',
    });
    return (answer.DomainRecords?.Record ?? []).filter((record) => (record.Line ?? DEFAULT_LINE) === line);
  };

  return {
    async listZones() {
      const zones: string[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await call<{
          TotalCount?: number;
          Domains?: { Domain?: { DomainName: string; PunyCode?: string }[] };
        }>('DescribeDomains', { PageNumber: String(page), PageSize: String(PAGE_SIZE) });
        const domains = answer.Domains?.Domain ?? [];
        zones.push(...domains.map((domain) => bare(domain.PunyCode || domain.DomainName)));
        if (domains.length < PAGE_SIZE || zones.length >= (answer.TotalCount ?? 0)) break;
      }
      return zones.sort();
    },
    async setCname(zone, name, target) {
      const cnameTtl = await ttlAt(zone, 'cname');
      const [existing] = await records(zone, 'CNAME', name);
      if (!existing) {
        await add(zone, name, 'CNAME', target, { ttl: cnameTtl });
        return;
      }
      if (existing.Value === target && existing.TTL === cnameTtl) return;
      await call('UpdateDomainRecord', {
        RecordId: existing.RecordId,
        RR: rr(zone, name),
        Type: 'CNAME',
        Value: target,
        Line: DEFAULT_LINE,
        TTL: String(cnameTtl),
      });
    },
    async addTxt(zone, name, values) {
      const present = (await records(zone, 'TXT', name)).map((record) => record.Value);
      for (const value of values.filter((entry) => !present.includes(entry))) await add(zone, name, 'TXT', value, {});
    },
    async removeTxt(zone, name, values) {
      for (const record of await records(zone, 'TXT', name)) {
        if (values.includes(record.Value)) await call('DeleteDomainRecord', { RecordId: record.RecordId });
      }
    },
    // Weights need AliDNS's weighted round robin (SLB) switched on for the name, type and line: only
    // where the weights differ.
    async setAddresses(zone, name, line, wanted) {
      const recordLine = line ?? DEFAULT_LINE;
      const weighted = new Set(wanted.map((record) => record.weight)).size > 1;
      const addressTtl = await ttlAt(zone, 'address');
      for (const type of ['A', 'AAAA'] as const) {
        const ips = new Map(
          wanted.filter((record) => addressType(record.ip) === type).map((record) => [record.ip, record.weight]),
        );
        const present = await lineRecords(zone, type, name, recordLine);
        const ids = new Map<string, { id: string; weight: number | undefined }>();
        for (const record of present) {
          if (!ips.has(record.Value)) {
            await call('DeleteDomainRecord', { RecordId: record.RecordId });
            continue;
          }
          ids.set(record.Value, { id: record.RecordId, weight: record.Weight });
          if (record.TTL !== addressTtl)
            await call('UpdateDomainRecord', {
              RecordId: record.RecordId,
              RR: rr(zone, name),
              Type: type,
              Value: record.Value,
              Line: recordLine,
              TTL: String(addressTtl),
            });
        }
        for (const ip of ips.keys()) {
          if (!ids.has(ip)) {
            const { RecordId } = await add(zone, name, type, ip, { line: recordLine, ttl: addressTtl });
            ids.set(ip, { id: RecordId, weight: undefined });
          }
        }
        if (!weighted || ips.size < 2) continue;
        await call('SetDNSSLBStatus', {
          DomainName: zone,
          SubDomain: bare(name),
          Type: type,
          Line: recordLine,
          Open: 'true',
        });
        for (const [ip, weight] of ips) {
          const record = ids.get(ip);
          if (record && record.weight !== weight)
            await call('UpdateDNSSLBWeight', { RecordId: record.id, Weight: String(weight) });
        }
      }
    },
    async listLines(zone) {
      const answer = await call<{
        RecordLines?: { RecordLine?: { LineCode: string; LineDisplayName?: string; LineName: string }[] };
      }>('DescribeSupportLines', { DomainName: zone });
      return (answer.RecordLines?.RecordLine ?? [])
        .filter((line) => line.LineCode !== DEFAULT_LINE)
        .map((line) => ({ code: line.LineCode, name: line.LineDisplayName || line.LineName }));
    },
    async listRecords(zone, name) {
      const found: AliRecord[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await call<{ TotalCount?: number; DomainRecords?: { Record?: AliRecord[] } }>(
          'DescribeSubDomainRecords',
          { SubDomain: bare(name), DomainName: zone, PageNumber: String(page), PageSize: '500' },
        );
        const batch = answer.DomainRecords?.Record ?? [];
        found.push(...batch);
        if (batch.length < 500 || found.length >= (answer.TotalCount ?? 0)) break;
      }
      return found
        .filter((record) => record.RR === rr(zone, name))
        .map((record) => ({
          type: record.Type,
          value: record.Type === 'CNAME' ? bare(record.Value) : record.Value,
          line: (record.Line ?? DEFAULT_LINE) === DEFAULT_LINE ? null : (record.Line ?? null),
          ttl: record.TTL ?? 0,
          weight: record.Weight ?? null,
        }));
    },
    ttlAt,
  };
}
