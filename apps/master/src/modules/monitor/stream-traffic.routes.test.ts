import { STREAM_LOG_COLUMNS, type StreamLogPage, type StreamRealtime, type StreamTop } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bucketOf, LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { type StreamWorld, shipStreamLines, streamLine, streamWorld } from './stream-node-fixture.ts';
import { STREAM_ROLLUPS } from './stream-rollup.repository.ts';

const HOUR_MS = 3_600_000;
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
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

describe.each(LOG_STORES)('stream traffic on $store', (target) => {
  let test: TestApp;
  let world: StreamWorld;
  let range: string;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    world = await streamWorld(test);
    range = `from=${iso(world.t0)}&to=${iso(world.t0 + 2 * DAY_MS)}`;
  });
  afterEach(async () => {
    await test.close();
  });

  const get = async <T>(token: string, path: string, query: string) =>
    data<T>(await test.call('GET', `/v1/monitor/stream/${path}?${query}`, { token }));
  const realtime = (token: string, query: string) => get<StreamRealtime>(token, 'realtime', query);
  const top = (token: string, query: string) => get<StreamTop>(token, 'top', `${range}&${query}`);
  const page = (token: string, query: string) => get<StreamLogPage>(token, 'access-log', `${range}&${query}`);

  it('rolls up by minute, hour and day to exactly the sums of the raw lines, once per batch', async () => {
    await shipStreamLines(test, world.node, 1, world.lines);
    await shipStreamLines(test, world.node, 2, [streamLine({ stream_id: world.db, time: world.t0 / 1000 + 1 })]);
    for (const { table, seconds } of STREAM_ROLLUPS) {
      const bucket = bucketOf(test.events.db, seconds);
      const counts = sql`count(*) as connections, sum(case when status >= 400 then 1 else 0 end) as failed,
          sum(bytes_received) as bytes_in, sum(bytes_sent) as bytes_out, sum(session_time_ms) as session_ms`;
      const raw = await sql<Record<string, number | string>>`select stream_id, ${bucket} as bucket, ${counts}
        from stream_logs group by stream_id, ${bucket} order by stream_id, bucket`.execute(test.events.db);
      // Summed per key: ClickHouse may hold a (stream, bucket) in several rows until it merges them.
      const rolledRows = (which: 'streams' | 'all') =>
        sql<Record<string, number | string>>`select stream_id, bucket, sum(connections) as connections,
            sum(failed) as failed, sum(bytes_in) as bytes_in, sum(bytes_out) as bytes_out, sum(session_ms) as session_ms
          from ${sql.table(table)} where ${which === 'all' ? sql`stream_id = 0` : sql`stream_id > 0`}
          group by stream_id, bucket order by stream_id, bucket`
          .execute(test.events.db)
          .then((result) => result.rows);
      const rolled = await rolledRows('streams');
      const numbers = (rows: Record<string, unknown>[]) =>
        rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])));
      expect(numbers(rolled), table).toEqual(numbers(raw.rows));
      expect(rolled.length, table).toBeGreaterThan(1);
      // Stream 0 holds every stream's totals of each interval.
      const totals = await sql<Record<string, number | string>>`select 0 as stream_id, b as bucket, ${counts}
        from (select ${bucket} as b, status, bytes_received, bytes_sent, session_time_ms from stream_logs) as lines
        group by b order by b`.execute(test.events.db);
      const all = await rolledRows('all');
      expect(numbers(all), table).toEqual(numbers(totals.rows));
    }
  });

  it('charts connections and bytes per minute, hour or day, for a stream, a group or every stream', async () => {
    const { alice, t0, db, game, groupId } = world;
    const hour = await realtime(alice, `stream_id=${db}&from=${iso(t0)}&to=${iso(t0 + HOUR_MS)}`);
    expect(hour.interval).toBe(60);
    expect(hour.points).toHaveLength(60);
    expect(hour.points[0]).toEqual({
      time: iso(t0),
      connections: 2,
      failed: 0,
      bytes_in: 150,
      bytes_out: 1500,
      session_ms: 3500,
    });
    expect(hour.points[1]).toMatchObject({ time: iso(t0 + 60_000), connections: 1, failed: 1 });
    expect(hour.points[2]).toMatchObject({ connections: 0, bytes_out: 0 });
    expect(hour.totals).toMatchObject({ connections: 3, failed: 1, bytes_out: 1500 });

    const month = await realtime(alice, `from=${iso(t0 - 25 * DAY_MS)}&to=${iso(t0 + 5 * DAY_MS)}`);
    expect(month.interval).toBe(3600);
    expect(month.totals).toMatchObject({ connections: 6, bytes_out: 1877 });
    const year = await realtime(alice, `from=${iso(t0 - 300 * DAY_MS)}&to=${iso(t0 + 2 * DAY_MS)}`);
    expect(year.interval).toBe(86_400);
    expect(year.points.at(-2)).toMatchObject({ time: iso(t0), connections: 5 });
    expect(year.points.at(-1)).toMatchObject({ time: iso(t0 + DAY_MS), connections: 1 });

    expect((await realtime(alice, `group_id=${groupId}&${range}`)).totals.connections).toBe(4);
    expect((await realtime(alice, `stream_id=${game}&${range}`)).totals).toMatchObject({
      connections: 2,
      bytes_out: 307,
    });
  });

  it('lists the top client addresses and listen ports', async () => {
    const { alice } = world;
    expect((await top(alice, 'by=ip')).list).toEqual([
      { key: '198.51.100.7', connections: 3, bytes_in: 200, bytes_out: 1300 },
      { key: '203.0.113.9', connections: 2, bytes_in: 150, bytes_out: 507 },
      { key: '2001:db8::7', connections: 1, bytes_in: 100, bytes_out: 70 },
    ]);
    expect((await top(alice, 'by=port')).list.map((row) => [row.key, row.connections])).toEqual([
      ['3306/tcp', 4],
      ['27015/udp', 2],
    ]);
    expect((await top(alice, 'by=ip&limit=1')).list.map((row) => row.key)).toEqual(['198.51.100.7']);
  });

  it('lists the log newest first with every field, filters it, pages by a cursor that new lines do not shift', async () => {
    const { alice, db, game, node, t0 } = world;
    const all = await page(alice, '');
    expect(all).toMatchObject({ total: 6, total_capped: false, next_cursor: null });
    expect(all.list[0]).toEqual({
      id: expect.any(Number),
      time: iso(t0 + DAY_MS + 17),
      stream_id: game,
      node_id: node.nodeId,
      client_ip: '198.51.100.7',
      protocol: 'UDP',
      status: 200,
      bytes_sent: 300,
      bytes_received: 100,
      session_time_ms: 1500,
      upstream: '127.0.0.1:8081',
    });
    expect((await page(alice, 'ip=203.0.113.0/24')).list.map((row) => row.client_ip)).toEqual([
      '203.0.113.9',
      '203.0.113.9',
    ]);
    expect((await page(alice, 'ip=2001:db8::/32')).total).toBe(1);
    expect((await page(alice, 'protocol=udp')).total).toBe(2);
    expect((await page(alice, 'status=5xx')).list.map((row) => row.status)).toEqual([502]);
    expect((await page(alice, `stream_id=${db}&status=200`)).total).toBe(3);
    expect((await page(alice, `node_id=${node.nodeId}`)).total).toBe(6);
    expect((await page(alice, `node_id=${node.nodeId + 1}`)).total).toBe(0);

    const first = await page(alice, 'limit=4');
    expect(first.list).toHaveLength(4);
    expect(first.next_cursor).not.toBeNull();
    // A newer line arrives between the pages: the next page still starts after the first page's last line.
    await shipStreamLines(test, node, 2, [streamLine({ stream_id: db, time: (t0 + DAY_MS + 20_000) / 1000 })]);
    const second = await page(alice, `limit=4&cursor=${first.next_cursor}`);
    expect([...first.list, ...second.list].map((row) => row.id)).toEqual(all.list.map((row) => row.id));
    expect(second.next_cursor).toBeNull();
  });

  it('exports the filter as CSV with the same rows as the pages', async () => {
    const { alice } = world;
    const csv = await test.app.inject({
      method: 'GET',
      url: `/v1/monitor/stream/access-log?${range}&format=csv&protocol=tcp`,
      headers: { 'access-token': alice },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(csv.body);
    expect(header).toEqual(STREAM_LOG_COLUMNS);
    const json = await page(alice, 'protocol=tcp');
    expect(rows).toEqual(json.list.map((entry) => STREAM_LOG_COLUMNS.map((column) => String(entry[column]))));
  });

  it('shows each user only their own streams, and admins every stream', async () => {
    const { alice, bob, db, groupId } = world;
    expect((await realtime(bob, range)).totals.connections).toBe(1);
    expect((await top(bob, 'by=ip')).list.map((row) => row.key)).toEqual(['192.0.2.55']);
    expect((await page(bob, '')).list.map((row) => row.client_ip)).toEqual(['192.0.2.55']);
    expect((await top(alice, 'by=ip')).list.map((row) => row.key)).not.toContain('192.0.2.55');
    for (const path of ['realtime?', 'top?by=ip&', 'access-log?', 'access-log?format=csv&']) {
      const foreign = await test.call('GET', `/v1/monitor/stream/${path}stream_id=${db}&${range}`, { token: bob });
      expect(foreign.body, path).toMatchObject({ code: 'not_found', msg: `stream_id: stream ${db} does not exist` });
      const group = await test.call('GET', `/v1/monitor/stream/${path}group_id=${groupId}&${range}`, { token: bob });
      expect(group.body, path).toMatchObject({
        code: 'not_found',
        msg: `group_id: stream group ${groupId} does not exist`,
      });
    }
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await realtime(admin, range)).totals.connections).toBe(7);
    expect((await page(admin, '')).total).toBe(7);
    expect((await realtime(admin, `stream_id=${db}&${range}`)).totals.connections).toBe(4);
  });

  it('refuses reversed, too long and malformed input, naming the field', async () => {
    const { alice, t0 } = world;
    const refused = async (path: string, query: string, msg: string) => {
      const result = await test.call('GET', `/v1/monitor/stream/${path}?${query}`, { token: alice });
      expect(result.body, query).toMatchObject({ code: 'invalid_param', msg });
      expect(result.status).toBe(400);
    };
    await refused('realtime', `from=${iso(t0 + HOUR_MS)}&to=${iso(t0)}`, 'to: must be after from');
    await refused('realtime', `from=${iso(t0 - 400 * DAY_MS)}&to=${iso(t0)}`, 'from: the range is at most 366 days');
    await refused('top', `by=ip&from=${iso(t0 - 35 * DAY_MS)}&to=${iso(t0)}`, 'from: the range is at most 31 days');
    await refused('top', 'by=url', 'querystring/by: must be ip or port');
    await refused('access-log', 'limit=100000', 'querystring/limit: must be a whole number from 1 to 200');
    await refused('access-log', 'protocol=sctp', 'querystring/protocol: must be tcp or udp');
    await refused('access-log', 'ip=300.1.1.1', expect.stringMatching(/^querystring\/ip: /) as unknown as string);
  });
});
