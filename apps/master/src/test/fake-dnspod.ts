import { type FakeHttp, type SeenRequest, startFakeHttp } from './fake-http.ts';
import { tc3SignatureProblem } from './fake-tc3.ts';

export interface DnspodRecord {
  RecordId: number;
  Domain: string;
  Name: string;
  Type: string;
  Value: string;
  Line: string;
  TTL: number;
  Weight: number | null;
}

/** The lines DNSPod offers a free domain (DescribeRecordLineList), the default line first. */
export const DNSPOD_LINES = ['默认', '电信', '联通', '移动', '境外'];

export interface FakeDnspod extends FakeHttp {
  records: DnspodRecord[];
}

/** DNSPod's Tencent Cloud API 3.0 (version 2021-03-23) for the actions Rampart calls, signatures checked. */
export async function startFakeDnspod(secrets: Record<string, string>, domains: string[]): Promise<FakeDnspod> {
  const records: DnspodRecord[] = [];
  let next = 100;
  const reply = (body: object) => ({ status: 200, body: { Response: { ...body, RequestId: 'fake-request' } } });
  const error = (Code: string, Message: string) => reply({ Error: { Code, Message } });
  const answer = (request: SeenRequest) => {
    if (request.method !== 'POST' || request.url !== '/') return error('InvalidAction', 'only POST / is served');
    if (request.headers['content-type'] !== 'application/json; charset=utf-8') {
      return error('InvalidParameter.ContentType', 'wrong content type');
    }
    if (request.headers['x-tc-version'] !== '2021-03-23') return error('InvalidParameter.Version', 'wrong version');
    const authFailure = tc3SignatureProblem('dnspod', request, secrets);
    if (authFailure) return error(authFailure, 'the signature does not match');
    const params = JSON.parse(request.body) as Record<string, string | number>;
    const action = request.headers['x-tc-action'];
    if (action === 'DescribeDomainList') {
      return reply({
        DomainCountInfo: { AllTotal: domains.length },
        DomainList: domains.map((name, index) => ({
          DomainId: index + 1,
          Name: name,
          Punycode: name,
          Status: 'ENABLE',
        })),
      });
    }
    const domain = String(params.Domain ?? '');
    if (!domains.includes(domain)) return error('InvalidParameterValue.DomainNotExists', 'the domain does not exist');
    if (action === 'DescribeDomain') return reply({ DomainInfo: { Domain: domain, Grade: 'DP_FREE' } });
    if (action === 'DescribeRecordLineList') {
      if (params.DomainGrade !== 'DP_FREE') return error('InvalidParameter.DomainGradeInvalid', 'wrong grade');
      return reply({ LineList: DNSPOD_LINES.map((Name, index) => ({ Name, LineId: String(index) })) });
    }
    if (action === 'DescribeRecordList') {
      const found = records.filter(
        (record) =>
          record.Domain === domain &&
          (!params.Subdomain || record.Name === params.Subdomain) &&
          (!params.RecordType || record.Type === params.RecordType) &&
          (!params.RecordLine || record.Line === params.RecordLine),
      );
      if (found.length === 0) return error('ResourceNotFound.NoDataOfRecord', 'no records');
      return reply({ RecordCountInfo: { TotalCount: found.length }, RecordList: found });
    }
    if (action === 'CreateRecord' || action === 'ModifyRecord') {
      if (!DNSPOD_LINES.includes(String(params.RecordLine)))
        return error('InvalidParameter.RecordLineInvalid', 'the line is invalid');
      if (params.Weight !== undefined && !(Number(params.Weight) >= 0 && Number(params.Weight) <= 100))
        return error('InvalidParameter.WeightInvalid', 'the weight is invalid');
      if (!params.SubDomain || !params.RecordType || !params.Value)
        return error('MissingParameter', 'a field is missing');
      // A free domain's records live 600 seconds at least.
      if (params.TTL !== undefined && !(Number(params.TTL) >= 600 && Number(params.TTL) <= 604800))
        return error('InvalidParameter.TTLInvalid', 'the TTL is invalid');
      if (action === 'ModifyRecord') {
        const record = records.find((entry) => entry.RecordId === params.RecordId);
        if (!record) return error('InvalidParameter.RecordIdInvalid', 'no such record');
        Object.assign(record, {
          Name: params.SubDomain,
          Type: params.RecordType,
          Value: params.Value,
          Line: params.RecordLine,
          TTL: Number(params.TTL ?? 600),
          Weight: params.Weight === undefined ? null : Number(params.Weight),
        });
        return reply({ RecordId: record.RecordId });
      }
      const record = {
        RecordId: next++,
        Domain: domain,
        Name: String(params.SubDomain),
        Type: String(params.RecordType),
        Value: String(params.Value),
        Line: String(params.RecordLine),
        TTL: Number(params.TTL ?? 600),
        Weight: params.Weight === undefined ? null : Number(params.Weight),
      };
      records.push(record);
      return reply({ RecordId: record.RecordId });
    }
    if (action === 'DeleteRecord') {
      const index = records.findIndex((entry) => entry.RecordId === params.RecordId);
      if (index < 0) return error('InvalidParameter.RecordIdInvalid', 'no such record');
      records.splice(index, 1);
      return reply({});
    }
    return error('InvalidAction', `unknown action ${String(action)}`);
  };
  const server = await startFakeHttp(answer);
  return { ...server, records };
}
