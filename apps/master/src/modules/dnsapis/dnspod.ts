import { DEFAULT_DNS_TTL, type DnspodCredentials, type DnsTtlSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { TC3_CONTENT_TYPE, tc3Authorization } from '../../tencent-tc3.ts';
import { addressType, bare, type DnsProvider, providerFetch, ttlOf } from './dns-provider.ts';

const SERVICE = 'dnspod';
const VERSION = '2021-03-23';
const DEFAULT_LINE = '默认';
/**
 * The smallest TTL of DNSPod's free plan (its API takes 1 to 604800, each plan with its own minimum;
 * paid plans go lower, but no answer we read names the plan's minimum, so the free plan's applies).
 */
const MIN_TTL = 600;

interface TencentAnswer {
  Response: { Error?: { Code: string; Message: string }; RequestId?: string } & Record<string, unknown>;
}

interface DnspodRecord {
  RecordId: number;
  Name: string;
  Type: string;
  Value: string;
  Line?: string;
  TTL?: number;
  Weight?: number | null;
}

const NO_RECORDS = 'ResourceNotFound.NoDataOfRecord';

/**
 * DNSPod through Tencent Cloud API 3.0 (dnspod.tencentcloudapi.com, version 2021-03-23): each call is
 * a signed JSON POST naming its action in X-TC-Action.
 */
export function dnspod(
  credentials: DnspodCredentials,
  endpoint: string,
  ttl: DnsTtlSettings = DEFAULT_DNS_TTL,
): DnsProvider {
  const url = new URL(endpoint);
  const call = async <T>(action: string, params: object, tolerate?: string): Promise<T | null> => {
    const payload = JSON.stringify(params);
    const timestamp = Math.floor(Date.now() / 1000);
    const { body } = await providerFetch(
      url.href,
      {
        method: 'POST',
        body: payload,
        headers: {
          authorization: tc3Authorization(
            SERVICE,
            { id: credentials.secret_id, secret: credentials.secret_key },
            url.host,
            payload,
            timestamp,
          ),
          'content-type': TC3_CONTENT_TYPE,
          'x-tc-action': action,
          'x-tc-timestamp': String(timestamp),
          'x-tc-version': VERSION,
        },
      },
      (_status, answer) => (answer as TencentAnswer | null)?.Response?.Error?.Message ?? '',
    );
    const response = (body as TencentAnswer | null)?.Response;
    if (!response) throw new AppError('conflict', 'the DNS API answered without a Response');
    const error = response.Error;
    if (!error) return response as T;
    if (error.Code === tolerate) return null;
    if (error.Code.startsWith('AuthFailure')) throw new AppError('conflict', 'the DNS API refused the API key');
    throw new AppError('conflict', `the DNS API refused the call: ${error.Message.slice(0, 200)} (${error.Code})`);
  };
  /** DNSPod names records relative to the zone, the apex as @. */
  const subdomain = (zone: string, name: string) => (bare(name) === zone ? '@' : bare(name).slice(0, -zone.length - 1));
  const records = async (zone: string, type: string, name: string) =>
    (
      await call<{ RecordList: DnspodRecord[] }>(
        'DescribeRecordList',
        { Domain: zone, Subdomain: subdomain(zone, name), RecordType: type, Limit: 3000 },
        NO_RECORDS,
      )
    )?.RecordList ?? [];
  const addressTtl = ttlOf(ttl, 'address', MIN_TTL);
  const cnameTtl = ttlOf(ttl, 'cname', MIN_TTL);
  const create = (
    zone: string,
    name: string,
    type: string,
    value: string,
    options: { line?: string; weight?: number | undefined; ttl?: number } = {},
  ) =>
    call('CreateRecord', {
      Domain: zone,
      SubDomain: subdomain(zone, name),
      RecordType: type,
      RecordLine: options.line ?? DEFAULT_LINE,
      Value: value,
      TTL: options.ttl ?? MIN_TTL,
      ...(options.weight !== undefined && { Weight: options.weight }),
    });
  const lineRecords = async (zone: string, type: string, name: string, line: string) =>
    (
      (
        await call<{ RecordList: DnspodRecord[] }>(
          'DescribeRecordList',
          { Domain: zone, Subdomain: subdomain(zone, name), RecordType: type, RecordLine: line, Limit: 3000 },
          NO_RECORDS,
        )
      )?.RecordList ?? []
    ).filter((record) => record.Line === undefined || record.Line === line);

  return {
    async listZones() {
      const answer = await call<{ DomainList: { Name: string; Punycode?: string }[] }>('DescribeDomainList', {
        Offset: 0,
        Limit: 3000,
      });
      return (answer?.DomainList ?? []).map((domain) => bare(domain.Punycode || domain.Name)).sort();
    },
    async setCname(zone, name, target) {
      const [existing] = await records(zone, 'CNAME', name);
      if (!existing) {
        await create(zone, name, 'CNAME', target, { ttl: cnameTtl });
        return;
      }
      await call('ModifyRecord', {
        Domain: zone,
        RecordId: existing.RecordId,
        SubDomain: subdomain(zone, name),
        RecordType: 'CNAME',
        RecordLine: DEFAULT_LINE,
        Value: target,
        TTL: cnameTtl,
      });
    },
    async addTxt(zone, name, values) {
      const present = (await records(zone, 'TXT', name)).map((record) => record.Value);
      for (const value of values.filter((entry) => !present.includes(entry))) await create(zone, name, 'TXT', value);
    },
    async removeTxt(zone, name, values) {
      for (const record of await records(zone, 'TXT', name)) {
        if (values.includes(record.Value)) await call('DeleteRecord', { Domain: zone, RecordId: record.RecordId });
      }
    },
    // Weights are sent only where they differ: DNSPod takes them on paid plans alone.
    async setAddresses(zone, name, line, wanted) {
      const recordLine = line ?? DEFAULT_LINE;
      const weighted = new Set(wanted.map((record) => record.weight)).size > 1;
      for (const type of ['A', 'AAAA'] as const) {
        const ips = new Map(
          wanted.filter((record) => addressType(record.ip) === type).map((record) => [record.ip, record.weight]),
        );
        const present = await lineRecords(zone, type, name, recordLine);
        for (const record of present) {
          const weight = ips.get(record.Value);
          if (weight === undefined) {
            await call('DeleteRecord', { Domain: zone, RecordId: record.RecordId });
          } else if ((weighted && record.Weight !== weight) || record.TTL !== addressTtl) {
            await call('ModifyRecord', {
              Domain: zone,
              RecordId: record.RecordId,
              SubDomain: subdomain(zone, name),
              RecordType: type,
              RecordLine: recordLine,
              Value: record.Value,
              TTL: addressTtl,
              ...(weighted && { Weight: weight }),
            });
          }
        }
        const kept = new Set(present.map((record) => record.Value));
        for (const [ip, weight] of ips) {
          if (!kept.has(ip))
            await create(zone, name, type, ip, {
              line: recordLine,
              weight: weighted ? weight : undefined,
              ttl: addressTtl,
            });
        }
      }
    },
    async listLines(zone) {
      const domain = await call<{ DomainInfo: { Grade: string } }>('DescribeDomain', { Domain: zone });
      const answer = await call<{ LineList?: { Name: string; LineId: string }[] }>('DescribeRecordLineList', {
        Domain: zone,
        DomainGrade: domain?.DomainInfo.Grade ?? 'DP_FREE',
      });
      return (answer?.LineList ?? [])
        .filter((line) => line.Name !== DEFAULT_LINE)
        .map((line) => ({ code: line.Name, name: line.Name }));
    },
    async listRecords(zone, name) {
      const answer = await call<{ RecordList: DnspodRecord[] }>(
        'DescribeRecordList',
        { Domain: zone, Subdomain: subdomain(zone, name), Limit: 3000 },
        NO_RECORDS,
      );
      return (answer?.RecordList ?? [])
        .filter((record) => record.Name === subdomain(zone, name))
        .map((record) => ({
          type: record.Type,
          value: record.Type === 'CNAME' ? bare(record.Value) : record.Value,
          line: record.Line === undefined || record.Line === DEFAULT_LINE ? null : record.Line,
          ttl: record.TTL ?? 0,
          weight: record.Weight ?? null,
        }));
    },
    async ttlAt(_zone, kind) {
      return kind === 'address' ? addressTtl : cnameTtl;
    },
  };
}
