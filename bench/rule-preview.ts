// POST /v1/rules/preview at scale, end to end through the API: one site's access log of the last 24
// hours holds BENCH_SQLITE_ROWS lines on SQLite (default 1 million) and BENCH_CLICKHOUSE_ROWS on
// ClickHouse (default 10 million, a private instance started here). Two typical drafts are previewed:
//  - an ACL: deny 203.0.113.0/24, deny country RU, deny paths matching ^/wp-(admin|login);
//  - a CC match on /login with a rate filter (3 requests in 60 s per address), action block.
// Baselines on the same store and rows: a raw count(*) of the site's lines in the range, and a raw
// count of the lines the ACL's conditions select. Prints the median of BENCH_CALLS calls (default 5).
// Usage: node bench/rule-preview.ts   (BENCH_STORES=sqlite or clickhouse to run one)
import { sql } from 'kysely';
import { openEventStore } from '../apps/master/src/db/events.ts';
import { launchClickHouse } from '../apps/master/src/test/clickhouse-server.ts';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { seedSites } from './site-seed.ts';
import { median } from './support.ts';

const ROWS: Record<string, number> = {
  sqlite: Number(process.env.BENCH_SQLITE_ROWS ?? 1_000_000),
  clickhouse: Number(process.env.BENCH_CLICKHOUSE_ROWS ?? 10_000_000),
};
const CALLS = Number(process.env.BENCH_CALLS ?? 5);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,clickhouse').split(',');
const HOUR_MS = 3_600_000;

const ACL = {
  type: 'acl',
  entries: [
    { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['203.0.113.0/24'] } },
    { action: 'deny', condition: { field: 'country', op: 'equals', values: ['RU'] } },
    { action: 'deny', condition: { field: 'path', op: 'regex', values: ['^/wp-(admin|login)'] } },
  ],
};
const RATE = {
  type: 'cc_match',
  match: { conditions: [{ field: 'path', op: 'prefix', values: ['/login'] }] },
  filter: { type: 'rate', requests: 3, seconds: 60, per: 'ip' },
  action: 'block',
};

async function timed(calls: number, run: () => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

// Line n of ROWS, evenly over the last 23 hours: 1 in 50 from 203.0.113.0/24, 1 in 97 a /login from
// one of two addresses, 1 in 40 a /wp-login.php, 1 in 100 from RU; the rest from 20,000 addresses
// in 10.0.0.0/8 fetching /assets/<n>.js.
const clickHouseRows = (siteId: number, start: number, step: number, offset: number, count: number) => `
  INSERT INTO access_logs SELECT number + 1 AS id, 1 AS node_id, ${siteId} AS site_id,
    ${start} + toInt64(number * ${step}) AS time_ms,
    multiIf(number % 50 = 0, concat('203.0.113.', toString(intDiv(number, 50) % 256)),
      number % 97 = 0, concat('192.0.2.', toString(number % 2)),
      concat('10.0.', toString(intDiv(number % 20000, 256)), '.', toString(number % 256))) AS client_ip,
    'GET' AS method, 'www.example.com' AS host,
    multiIf(number % 97 = 0, '/login?next=/', number % 40 = 0, '/wp-login.php',
      concat('/assets/', toString(number % 5000), '.js')) AS uri,
    200 AS status, 5120 AS bytes_sent, 420 AS bytes_received, 4 AS request_time_ms, 3 AS upstream_time_ms,
    'HIT' AS cache_status, 'Mozilla/5.0 bench' AS user_agent, '' AS referer, '' AS block_reason,
    multiIf(number % 50 = 0, concat('00000000000000000000ffffcb0071', lower(hex(toUInt8(intDiv(number, 50) % 256)))),
      number % 97 = 0, concat('00000000000000000000ffffc00002', lower(hex(toUInt8(number % 2)))),
      concat('00000000000000000000ffff0a00', lower(hex(toUInt8(intDiv(number % 20000, 256)))), lower(hex(toUInt8(number % 256))))) AS client_ip_key,
    if(number % 100 = 7, 'RU', 'US') AS country
  FROM (SELECT number + ${offset} AS number FROM system.numbers LIMIT ${count})`;

async function benchStore(store: string) {
  const rows = ROWS[store] ?? 0;
  const clickhouse = store === 'clickhouse' ? await launchClickHouse() : undefined;
  const env: Record<string, string> = clickhouse ? { RAMPART_LOGS_URL: `${clickhouse.httpUrl}/bench` } : {};
  const { app, database, base } = await startInProcessMaster('rampart-rule-preview-', undefined, env);
  const events = await openEventStore(env.RAMPART_LOGS_URL, database.logs);
  try {
    const login = await fetch(`${base}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    const admin = await database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    await seedSites(database.db, database.dialect, admin.id, 1);
    const siteId = (
      await database.db
        .selectFrom('sites')
        .select((eb) => eb.fn.min('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id as number;

    const now = Date.now();
    const start = now - 23 * HOUR_MS;
    const step = (23 * HOUR_MS) / rows;
    const seeding = performance.now();
    if (events.kind === 'clickhouse') {
      for (let offset = 0; offset < rows; offset += 1_000_000) {
        await events.clickhouse.client.command({
          query: clickHouseRows(siteId, start, step, offset, Math.min(1_000_000, rows - offset)),
        });
      }
      // Timing starts when the background merges of the parts just written are done.
      for (let waited = 0; waited < 300; waited++) {
        const result = await events.clickhouse.client.query({
          query: 'SELECT count() AS n FROM system.merges',
          format: 'JSONEachRow',
        });
        const [row] = await result.json<{ n: number | string }>();
        if (Number(row?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    } else {
      await sql`insert into access_logs (node_id, site_id, time_ms, client_ip, method, host, uri, status, bytes_sent,
          bytes_received, request_time_ms, upstream_time_ms, cache_status, user_agent, referer, block_reason,
          client_ip_key, country)
        with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${sql.lit(rows)})
        select 1, ${sql.lit(siteId)}, ${sql.lit(start)} + cast(i * ${sql.lit(step)} as integer),
          case when i % 50 = 0 then '203.0.113.' || ((i / 50) % 256)
            when i % 97 = 0 then '192.0.2.' || (i % 2)
            else '10.0.' || ((i % 20000) / 256) || '.' || (i % 256) end,
          'GET', 'www.example.com',
          case when i % 97 = 0 then '/login?next=/' when i % 40 = 0 then '/wp-login.php'
            else '/assets/' || (i % 5000) || '.js' end,
          200, 5120, 420, 4, 3, 'HIT', 'Mozilla/5.0 bench', '', '',
          case when i % 50 = 0 then printf('00000000000000000000ffffcb0071%02x', (i / 50) % 256)
            when i % 97 = 0 then printf('00000000000000000000ffffc00002%02x', i % 2)
            else printf('00000000000000000000ffff0a00%02x%02x', (i % 20000) / 256, i % 256) end,
          case when i % 100 = 7 then 'RU' else 'US' end
        from n`.execute(database.logs);
      await sql`analyze`.execute(database.logs);
    }
    console.log(
      `${store}: ${rows.toLocaleString('en')} lines of one site seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
    );

    const preview = (rule: object) => async () => {
      const response = await fetch(`${base}/v1/rules/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'access-token': token },
        body: JSON.stringify({ site_id: siteId, hours: 24, rule }),
      });
      const body = (await response.json()) as {
        code: number | string;
        msg: string;
        data: { scanned: number; matched: number; rate_crossings: unknown[] };
      };
      if (body.code !== 0) throw new Error(`preview: ${body.code} ${body.msg}`);
      if (body.data.scanned !== rows) throw new Error(`preview scanned ${body.data.scanned} lines, not ${rows}`);
      lastAnswer = body.data;
    };
    let lastAnswer: { matched: number; rate_crossings: unknown[] } = { matched: 0, rate_crossings: [] };
    const range = sql`site_id = ${siteId} and time_ms >= ${now - 24 * HOUR_MS} and time_ms < ${Date.now()}`;
    const count = await timed(CALLS, async () => {
      await sql`select count(*) from access_logs where ${range}`.execute(events.db);
    });
    console.log(`  raw count(*) of the site's lines: median ${count.toFixed(0)} ms`);
    const aclCount = await timed(CALLS, async () => {
      await sql`select count(*) from access_logs where ${range} and ((client_ip_key >= '00000000000000000000ffffcb007100'
        and client_ip_key <= '00000000000000000000ffffcb0071ff') or country = 'RU' or substr(uri, 1, 4) = '/wp-')`.execute(
        events.db,
      );
    });
    console.log(
      `  raw count(*) of the lines the ACL's conditions select (regex as a prefix): median ${aclCount.toFixed(0)} ms`,
    );
    const acl = await timed(CALLS, preview(ACL));
    console.log(
      `  preview, ACL (CIDR, country, path regex): median ${acl.toFixed(0)} ms, ${lastAnswer.matched} matched`,
    );
    const rate = await timed(CALLS, preview(RATE));
    console.log(
      `  preview, CC match /login with a rate filter: median ${rate.toFixed(0)} ms, ${lastAnswer.matched} matched, ${lastAnswer.rate_crossings.length} addresses crossed the rate`,
    );
  } finally {
    await events.close();
    await app.close();
    await clickhouse?.close();
  }
}

console.log(`date: ${new Date().toISOString()}  node ${process.version}  calls ${CALLS}, medians`);
for (const store of STORES) await benchStore(store);
