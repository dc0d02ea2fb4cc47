import type { AccessLogEntry, AccessLogPage } from '@rampart/contracts';
import { ACCESS_LOG_COLUMNS } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { data, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { type MonitorWorld, monitorWorld } from './monitor-fixture.ts';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** RFC 4180 as a spreadsheet reads it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  return rows;
}

describe.each(LOG_STORES)('site access log on $store', (target) => {
  let test: TestApp;
  let world: MonitorWorld;
  let range: string;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    world = await monitorWorld(test);
    range = `from=${iso(world.t0)}&to=${iso(world.t0 + 2 * DAY_MS)}`;
  });
  afterEach(async () => {
    await test.close();
  });

  const page = async (token: string, query: string) =>
    data<AccessLogPage>(await test.call('GET', `/v1/monitor/site/access-log?${range}&${query}`, { token }));
  const uris = (list: AccessLogEntry[]) => list.map((row) => row.uri);

  it('lists every field of the lines, newest first, and filters by each field', async () => {
    const { alice, shop, blog } = world;
    const all = await page(alice, '');
    expect(all).toMatchObject({ total: 8, total_capped: false, next_cursor: null });
    expect(uris(all.list)).toEqual(['/c', '/c', '/a', '/login', '/a', '/b', '/a', '/a']);
    expect(all.list[3]).toEqual({
      id: expect.any(Number),
      time: iso(world.t0 + 2 * 3_600_000),
      site_id: shop,
      node_id: world.node.nodeId,
      client_ip: '2001:db8::7',
      method: 'GET',
      host: 'www.example.com',
      uri: '/login',
      status: 403,
      bytes_sent: 5,
      bytes_received: 50,
      request_time_ms: 10,
      upstream_time_ms: 5,
      cache_status: 'MISS',
      user_agent: 'test',
      referer: '',
      block_reason: 'kind=acl;action=deny',
      country: 'IR',
    });
    expect(all.list[0]?.country).toBe('');
    expect((await page(alice, `site_id=${blog}`)).total).toBe(3);
    expect((await page(alice, `group_id=${world.groupId}`)).total).toBe(5);
    expect(uris((await page(alice, 'ip=203.0.113.0/24')).list)).toEqual(['/a', '/a']);
    expect(uris((await page(alice, 'ip=203.0.113.9')).list)).toEqual(['/a', '/a']);
    expect(uris((await page(alice, 'ip=2001:db8::/32')).list)).toEqual(['/login']);
    expect(uris((await page(alice, 'url=/log')).list)).toEqual(['/login']);
    expect((await page(alice, 'url=/L')).total).toBe(0);
    expect(uris((await page(alice, 'url=OGI&url_match=contains')).list)).toEqual(['/login']);
    expect((await page(alice, 'url=%25&url_match=contains')).total).toBe(0);
    expect((await page(alice, 'status=4xx')).list.map((row) => row.status)).toEqual([403, 404]);
    expect((await page(alice, 'status=502')).total).toBe(1);
    expect((await page(alice, 'cache_status=HIT')).total).toBe(2);
    expect((await page(alice, 'method=POST')).total).toBe(0);
    expect((await page(alice, `node_id=${world.node.nodeId}`)).total).toBe(8);
    expect((await page(alice, `node_id=${world.node.nodeId + 1}`)).total).toBe(0);
    expect(uris((await page(alice, 'country=IR')).list)).toEqual(['/login']);
    expect((await page(alice, 'country=US')).total).toBe(0);
  });

  it('pages by cursor without skipping or repeating a line while new lines arrive', async () => {
    const { alice, shop } = world;
    const seen: number[] = [];
    let cursor: string | null = '';
    let seq = 2;
    while (cursor !== null) {
      const next: AccessLogPage = await page(alice, `limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.list.map((row) => row.id));
      cursor = next.next_cursor;
      // Newer lines land between pages, in the range and at its top.
      await shipLogs(test, world.node, seq++, [
        logLine({ site_id: shop, time: (world.t0 + 2 * DAY_MS - 1000) / 1000, uri: `/new${seq}` }),
      ]);
    }
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    const before = await page(alice, 'limit=200');
    const old = before.list.filter((row) => !row.uri.startsWith('/new')).map((row) => row.id);
    expect(seen).toEqual(old);
  });

  it('exports the filter as CSV equal to the page rows, quoting and defusing hostile text', async () => {
    const { alice, shop } = world;
    const hostile = [
      logLine({ site_id: shop, time: world.t0 / 1000 + 7, user_agent: '<script>alert(1)</script>', uri: '/x' }),
      logLine({
        site_id: shop,
        time: world.t0 / 1000 + 8,
        uri: '/x\r\nSet-Cookie: a=1',
        referer: '=HYPERLINK("http://evil")',
      }),
      logLine({ site_id: shop, time: world.t0 / 1000 + 9, user_agent: '+cmd|calc', referer: '-2+3', host: '@SUM(A1)' }),
      logLine({ site_id: shop, time: world.t0 / 1000 + 10, user_agent: 'say "hi", ok' }),
    ];
    await shipLogs(test, world.node, 2, hostile);
    const rows = await page(alice, 'limit=200');
    const csv = await test.app.inject({
      method: 'GET',
      url: `/v1/monitor/site/access-log?${range}&format=csv`,
      headers: { 'access-token': alice },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="access-log.csv"');
    const [header, ...lines] = parseCsv(csv.body);
    expect(header).toEqual(ACCESS_LOG_COLUMNS);
    const defused = (value: unknown) =>
      value === null ? '' : typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
    expect(lines).toEqual(rows.list.map((row) => ACCESS_LOG_COLUMNS.map((column) => defused(row[column]))));
    expect(lines).toHaveLength(12);
    expect(csv.body).toContain('"\'=HYPERLINK(""http://evil"")"');
    expect(csv.body).toContain('"/x\r\nSet-Cookie: a=1"');
    expect(csv.body).toContain('"\'+cmd|calc"');
    expect(csv.body).toContain('"\'@SUM(A1)"');
    expect(csv.body).toContain('"say ""hi"", ok"');
    const filtered = await test.app.inject({
      method: 'GET',
      url: `/v1/monitor/site/access-log?${range}&format=csv&url=/x`,
      headers: { 'access-token': alice },
    });
    expect(parseCsv(filtered.body)).toHaveLength(3);
  });

  it('shows each user only their own sites’ lines, and admins every line', async () => {
    const { alice, bob, shop } = world;
    expect(uris((await page(bob, '')).list)).toEqual(['/bob']);
    const foreign = await test.call('GET', `/v1/monitor/site/access-log?${range}&site_id=${shop}`, { token: bob });
    expect(foreign.body).toMatchObject({ code: 'not_found', msg: `site_id: site ${shop} does not exist` });
    const foreignCsv = await test.call('GET', `/v1/monitor/site/access-log?${range}&site_id=${shop}&format=csv`, {
      token: bob,
    });
    expect(foreignCsv.body.code).toBe('not_found');
    const bobsCsv = await test.app.inject({
      method: 'GET',
      url: `/v1/monitor/site/access-log?${range}&format=csv`,
      headers: { 'access-token': bob },
    });
    expect(parseCsv(bobsCsv.body).map((row) => row[ACCESS_LOG_COLUMNS.indexOf('uri')])).toEqual(['uri', '/bob']);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await page(admin, '')).total).toBe(10);
    expect((await page(alice, '')).list.every((row) => row.site_id === shop || row.site_id === world.blog)).toBe(true);
  });

  it('refuses malformed addresses, cursors, filters, huge pages and ranges beyond the raw log', async () => {
    const { alice, t0 } = world;
    const refused = async (query: string, msg: string) => {
      const result = await test.call('GET', `/v1/monitor/site/access-log?${query}`, { token: alice });
      expect(result.body, query).toMatchObject({ code: 'invalid_param', msg });
    };
    await refused(
      'ip=10.0.0.0/33',
      'querystring/ip: must be an IPv4 or IPv6 address or CIDR range such as 203.0.113.0/24',
    );
    await refused('ip=1::2::3', 'ip: 1::2::3 is not an IP address or CIDR range');
    await refused('limit=100000', 'querystring/limit: must be a whole number from 1 to 200');
    await refused('cursor=abc', 'querystring/cursor: must be the next_cursor of the previous page');
    await refused('status=999', 'querystring/status: must be a status such as 404, or a class such as 4xx');
    await refused('method=get;drop', 'querystring/method: must be 1 to 16 capital letters');
    await refused(
      'country=ir',
      'querystring/country: must be an ISO 3166-1 alpha-2 country code in upper case, such as CN or US',
    );
    await refused(
      'format=xlsx',
      'querystring/format: must be json (a page) or csv (every matching row, streamed, at most 100000)',
    );
    await refused(
      `from=${iso(t0 - 40 * DAY_MS)}&to=${iso(t0 - 39 * DAY_MS)}`,
      'from: the access log keeps 31 days: start later',
    );
    await refused(`from=${iso(t0)}&to=${iso(t0)}`, 'to: must be after from');
    const group = await test.call('GET', '/v1/monitor/site/access-log?group_id=999999', { token: alice });
    expect(group).toMatchObject({
      status: 404,
      body: { code: 'not_found', msg: 'group_id: site group 999999 does not exist' },
    });
  });
});
