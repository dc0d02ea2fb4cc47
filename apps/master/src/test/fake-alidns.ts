import { createHmac } from 'node:crypto';
import { type FakeHttp, type SeenRequest, startFakeHttp } from './fake-http.ts';

export interface AlidnsRecord {
  RecordId: string;
  DomainName: string;
  RR: string;
  Type: string;
  Value: string;
  Line: string;
  TTL: number;
  Weight?: number;
}

/** Lines AliDNS's DescribeSupportLines answers for a free domain (a few of them). */
export const ALIDNS_LINES = [
  { LineCode: 'default', LineName: '默认', LineDisplayName: '默认' },
  { LineCode: 'telecom', LineName: '电信', LineDisplayName: '中国电信' },
  { LineCode: 'unicom', LineName: '联通', LineDisplayName: '中国联通' },
  { LineCode: 'mobile', LineName: '移动', LineDisplayName: '中国移动' },
  { LineCode: 'oversea', LineName: '境外', LineDisplayName: '境外' },
];

export interface FakeAlidns extends FakeHttp {
  records: AlidnsRecord[];
}

/** RFC 3986 encoding as Alibaba Cloud's signature documentation spells it (written apart from the master's). */
const encode = (text: string) =>
  encodeURIComponent(text)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/!/g, '%21')
    .replace(/'/g, '%27')
    .replace(/\(/g, '%28')
    .replace(/\)/g, '%29');

/** Checks the RPC signature 1.0 of a GET: the error code AliDNS would answer, or null. */
function signatureProblem(params: URLSearchParams, secrets: Record<string, string>, nonces: Set<string>) {
  const secret = secrets[params.get('AccessKeyId') ?? ''];
  if (!secret) return { status: 404, code: 'InvalidAccessKeyId.NotFound' };
  if (params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0') {
    return { status: 400, code: 'IncompleteSignature' };
  }
  const timestamp = Date.parse(params.get('Timestamp') ?? '');
  if (
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.get('Timestamp') ?? '') ||
    Math.abs(Date.now() - timestamp) > 900_000
  ) {
    return { status: 400, code: 'InvalidTimeStamp.Expired' };
  }
  const nonce = params.get('SignatureNonce') ?? '';
  if (!nonce || nonces.has(nonce)) return { status: 400, code: 'SignatureNonceUsed' };
  nonces.add(nonce);
  const pairs = [...params.entries()].filter(([name]) => name !== 'Signature');
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  const expected = createHmac('sha1', `${secret}&`)
    .update(`GET&${encode('/')}&${encode(canonical)}`)
    .digest('base64');
  return expected === params.get('Signature') ? null : { status: 400, code: 'SignatureDoesNotMatch' };
}

/** Alibaba Cloud DNS (API 2015-01-09) for the actions Rampart calls, signatures, nonces and times checked. */
export async function startFakeAlidns(
  secrets: Record<string, string>,
  domains: string[],
  /**
   * The smallest TTL of the domains' edition (DescribeDomainInfo's MinTtl): 600 on the free one;
   * null: a key whose policy does not allow DescribeDomainInfo (600 still applies to records).
   */
  edition: number | null = 600,
): Promise<FakeAlidns> {
  const records: AlidnsRecord[] = [];
  const minTtl = edition ?? 600;
  const nonces = new Set<string>();
  /** name|RR|type|line of the record sets whose weighted round robin is on. */
  const slb = new Set<string>();
  let next = 1000;
  const fail = (status: number, Code: string, Message = Code) => ({
    status,
    body: { RequestId: 'fake-request', HostId: 'alidns.aliyuncs.com', Code, Message },
  });
  const reply = (body: object) => ({ status: 200, body: { RequestId: 'fake-request', ...body } });
  const answer = (request: SeenRequest) => {
    const url = new URL(request.url, 'http://fake');
    if (request.method !== 'GET' || url.pathname !== '/') return fail(404, 'InvalidAction.NotFound');
    const params = url.searchParams;
    if (params.get('Version') !== '2015-01-09' || params.get('Format') !== 'JSON') {
      return fail(400, 'InvalidVersion');
    }
    const problem = signatureProblem(params, secrets, nonces);
    if (problem) return fail(problem.status, problem.code, 'Specified signature is not matched with our calculation.');
    const action = params.get('Action');
    if (action === 'DescribeDomains') {
      const size = Number(params.get('PageSize') ?? 20);
      const page = Number(params.get('PageNumber') ?? 1);
      const slice = domains.slice((page - 1) * size, page * size);
      return reply({
        TotalCount: domains.length,
        PageNumber: page,
        PageSize: size,
        Domains: { Domain: slice.map((name) => ({ DomainName: name, PunyCode: name })) },
      });
    }
    if (action === 'UpdateDNSSLBWeight') {
      const record = records.find((entry) => entry.RecordId === params.get('RecordId'));
      if (!record) return fail(400, 'DomainRecordNotBelongToUser');
      const weight = Number(params.get('Weight'));
      if (!(weight >= 1 && weight <= 100)) return fail(400, 'InvalidWeight');
      if (!slb.has(`${record.DomainName}|${record.RR}|${record.Type}|${record.Line}`))
        return fail(400, 'DnsSLBStatusNotOpen');
      record.Weight = weight;
      return reply({ RecordId: record.RecordId, Weight: weight });
    }
    if (action === 'DeleteDomainRecord') {
      const index = records.findIndex((record) => record.RecordId === params.get('RecordId'));
      if (index < 0) return fail(400, 'DomainRecordNotBelongToUser');
      records.splice(index, 1);
      return reply({ RecordId: params.get('RecordId') });
    }
    if (action === 'UpdateDomainRecord') {
      const record = records.find((entry) => entry.RecordId === params.get('RecordId'));
      if (!record) return fail(400, 'DomainRecordNotBelongToUser');
      const ttl = Number(params.get('TTL') ?? 600);
      const line = params.get('Line') ?? 'default';
      if (
        record.Value === params.get('Value') &&
        record.RR === params.get('RR') &&
        record.TTL === ttl &&
        record.Line === line
      )
        return fail(400, 'DomainRecordDuplicate');
      if (ttl < minTtl) return fail(400, 'InvalidTTL', `The TTL must be at least ${minTtl}.`);
      Object.assign(record, {
        RR: params.get('RR'),
        Type: params.get('Type'),
        Value: params.get('Value'),
        TTL: ttl,
        Line: line,
      });
      return reply({ RecordId: record.RecordId });
    }
    const domain = params.get('DomainName') ?? '';
    if (!domains.includes(domain))
      return fail(400, 'InvalidDomainName.NoExist', 'The specified domain name does not exist.');
    if (action === 'DescribeSupportLines') return reply({ RecordLines: { RecordLine: ALIDNS_LINES } });
    if (action === 'DescribeDomainInfo' && edition === null)
      return fail(403, 'Forbidden.RAM', 'User not authorized to operate on the specified resource.');
    if (action === 'DescribeDomainInfo')
      return reply({ DomainName: domain, ...(params.get('NeedDetailAttributes') === 'true' && { MinTtl: minTtl }) });
    if (action === 'SetDNSSLBStatus') {
      const sub = params.get('SubDomain') ?? '';
      const rr = sub === domain ? '@' : sub.slice(0, -domain.length - 1);
      const key = `${domain}|${rr}|${params.get('Type') ?? 'A'}|${params.get('Line') ?? 'default'}`;
      if (params.get('Open') === 'false') slb.delete(key);
      else slb.add(key);
      return reply({ RecordCount: records.length, Open: params.get('Open') !== 'false' });
    }
    if (action === 'DescribeSubDomainRecords') {
      const sub = params.get('SubDomain') ?? '';
      const rr = sub === domain ? '@' : sub.slice(0, -domain.length - 1);
      const line = params.get('Line');
      const found = records.filter(
        (record) =>
          record.DomainName === domain &&
          record.RR === rr &&
          (!params.get('Type') || record.Type === params.get('Type')) &&
          (!line || record.Line === line),
      );
      return reply({ TotalCount: found.length, DomainRecords: { Record: found } });
    }
    if (action === 'AddDomainRecord') {
      const record: AlidnsRecord = {
        RecordId: String(next++),
        DomainName: domain,
        RR: params.get('RR') ?? '',
        Type: params.get('Type') ?? '',
        Value: params.get('Value') ?? '',
        Line: params.get('Line') ?? 'default',
        TTL: Number(params.get('TTL') ?? 600),
      };
      if (!ALIDNS_LINES.some((line) => line.LineCode === record.Line))
        return fail(400, 'InvalidRR.Line', 'The line is invalid.');
      if (record.TTL < minTtl) return fail(400, 'InvalidTTL', `The TTL must be at least ${minTtl}.`);
      const same = records.some(
        (entry) =>
          entry.DomainName === domain &&
          entry.RR === record.RR &&
          entry.Type === record.Type &&
          entry.Line === record.Line &&
          entry.Value === record.Value,
      );
      if (same) return fail(400, 'DomainRecordDuplicate', 'The DNS record already exists.');
      records.push(record);
      return reply({ RecordId: record.RecordId });
    }
    return fail(404, 'InvalidAction.NotFound');
  };
  const http = await startFakeHttp(answer);
  return Object.assign(http, { records });
}
