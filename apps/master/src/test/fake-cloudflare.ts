import { type FakeHttp, type SeenRequest, startFakeHttp } from './fake-http.ts';

export interface CloudflareRecord {
  id: string;
  zone_id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  proxied?: boolean;
}

export interface FakeCloudflare extends FakeHttp {
  /** The API base to configure: …/client/v4 */
  api: string;
  records: CloudflareRecord[];
}

const fail = (status: number, code: number, message: string) => ({
  status,
  body: { success: false, errors: [{ code, message }], messages: [], result: null },
});
const done = (result: unknown, extra: object = {}) => ({
  status: 200,
  body: { success: true, errors: [], messages: [], result, ...extra },
});

/**
 * Cloudflare's API v4 as far as Rampart uses it, checking what the real one checks: a Bearer token,
 * the paths, JSON bodies with type, name inside the zone, content, ttl; TXT content quoted.
 */
export async function startFakeCloudflare(token: string, zones: Record<string, string>): Promise<FakeCloudflare> {
  const records: CloudflareRecord[] = [];
  let next = 1;
  const answer = (request: SeenRequest) => {
    if (request.headers.authorization !== `Bearer ${token}`) return fail(403, 10000, 'Authentication error');
    const url = new URL(request.url, 'http://fake');
    const path = url.pathname.replace(/^\/client\/v4/, '');
    if (request.method === 'GET' && path === '/zones') {
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = Object.entries(zones).map(([name, id]) => ({ id, name, status: 'active' }));
      const result = all.slice((page - 1) * perPage, page * perPage);
      return done(result, {
        result_info: {
          page,
          per_page: perPage,
          count: result.length,
          total_count: all.length,
          total_pages: Math.max(1, Math.ceil(all.length / perPage)),
        },
      });
    }
    const match = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?$/.exec(path);
    const zoneName = Object.entries(zones).find(([, id]) => id === match?.[1])?.[0];
    if (!match || !zoneName)
      return fail(404, 7003, 'Could not route to /zones, perhaps your object identifier is invalid?');
    const recordId = match[2];
    if (request.method === 'GET' && !recordId) {
      const type = url.searchParams.get('type');
      const name = url.searchParams.get('name');
      const result = records.filter(
        (record) => record.zone_id === match[1] && (!type || record.type === type) && (!name || record.name === name),
      );
      return done(result, {
        result_info: { page: 1, per_page: 100, count: result.length, total_count: result.length },
      });
    }
    if (request.method === 'DELETE' && recordId) {
      const index = records.findIndex((record) => record.id === recordId);
      if (index < 0) return fail(404, 81044, 'Record does not exist.');
      records.splice(index, 1);
      return done({ id: recordId });
    }
    if (request.method !== 'POST' && !(request.method === 'PUT' && recordId))
      return fail(405, 10405, 'Method not allowed');
    if (request.headers['content-type'] !== 'application/json') return fail(400, 6003, 'Invalid request headers');
    const body = JSON.parse(request.body) as Partial<CloudflareRecord>;
    if (!body.type || !['CNAME', 'TXT', 'A', 'AAAA'].includes(body.type))
      return fail(400, 9004, 'DNS record type is invalid.');
    if (body.type === 'A' && !/^\d{1,3}(\.\d{1,3}){3}$/.test(body.content ?? ''))
      return fail(400, 9005, 'Content for A record is invalid.');
    if (body.type === 'AAAA' && !(body.content ?? '').includes(':'))
      return fail(400, 9005, 'Content for AAAA record is invalid.');
    if (!body.name || !(body.name === zoneName || body.name.endsWith(`.${zoneName}`))) {
      return fail(400, 9005, 'DNS record name is not inside the zone.');
    }
    if (!body.content || (body.type === 'TXT' && !/^".*"$/.test(body.content))) {
      return fail(400, 9007, 'Content for TXT record is invalid: must be quoted.');
    }
    if (typeof body.ttl !== 'number' || !(body.ttl === 1 || (body.ttl >= 60 && body.ttl <= 86400)))
      return fail(400, 9021, 'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.');
    if (request.method === 'PUT') {
      const existing = records.find((record) => record.id === recordId);
      if (!existing) return fail(404, 81044, 'Record does not exist.');
      Object.assign(existing, body);
      return done(existing);
    }
    const record = { ...(body as CloudflareRecord), id: `rec${next++}`, zone_id: match[1] as string };
    records.push(record);
    return done(record);
  };
  const server = await startFakeHttp(answer);
  return { ...server, api: `${server.url}/client/v4`, records };
}
