// The monitor at scale, on SQLite and on ClickHouse (RAMPART_LOGS_URL, a private instance started
// here), end to end through the API (HTTP, auth, validation, the read, the capped count):
//  - access-log pages with a filter at BENCH_ROWS lines (default 10 million) over 30 days and
//    BENCH_SITES sites (default 10,000), against the same page query as raw SQL on the same store;
//  - the 30-day realtime chart of every site and of one site with traffic in every hour of every
//    site (the hour rollup holds BENCH_SITES × 720 rows).
// Prints the median and p99 of each call over BENCH_CALLS calls (default 100).
// Usage: node bench/monitor-scale.ts   (BENCH_STORES=sqlite or clickhouse to run one)
import { sql } from 'kysely';
import { openEventStore } from '../apps/master/src/db/events.ts';
import { launchClickHouse } from '../apps/master/src/test/clickhouse-server.ts';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { seedSites } from './site-seed.ts';
import { median, percentile } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SITES = Number(process.env.BENCH_SITES ?? 10_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,clickhouse').split(',');
const HOURS = 30 * 24;
const DAY_MS = 86_400_000;

const p99 = (values: number[]) => percentile(values, 0.99);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed(calls: number, run: (i: number) => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return { median: median(times), p99: p99(times) };
}

async function benchStore(store: string) {
  const clickhouse = store === 'clickhouse' ? await launchClickHouse() : undefined;
  const env: Record<string, string> = clickhouse ? { RAMPART_LOGS_URL: `${clickhouse.httpUrl}/bench` } : {};
  const { app, database, base } = await startInProcessMaster('rampart-monitor-scale-', undefined, env);
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
    await seedSites(database.db, database.dialect, admin.id, SITES);
    const firstSite = (
      await database.db
        .selectFrom('sites')
        .select((eb) => eb.fn.min('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id;

    const now = Date.now();
    const end = Math.floor(now / 3_600_000) * 3_600_000;
    const start = end - 30 * DAY_MS;
    const step = (30 * DAY_MS) / ROWS;
    let seeded = performance.now();
    // Line n: site firstSite + n % SITES, evenly over 30 days, 1 in 20 a 404, 1 in 500 a 500, every
    // 50th URL a /login, addresses 10.x.y.z.
    if (events.kind === 'clickhouse') {
      // In inserts of a million lines, each well inside the client's request timeout.
      for (let offset = 0; offset < ROWS; offset += 1_000_000) {
        await events.clickhouse.client.command({
          query: `INSERT INTO access_logs SELECT number + 1 AS id, 1 AS node_id, ${firstSite} + number % ${SITES} AS site_id,
          ${start} + toInt64(number * ${step}) AS time_ms,
          concat('10.', toString(intDiv(number, 65536) % 256), '.', toString(intDiv(number, 256) % 256), '.', toString(number % 256)) AS client_ip,
          'GET' AS method, 'www.example.com' AS host,
          if(number % 50 = 0, '/login', concat('/assets/', toString(number % 5000), '.js')) AS uri,
          multiIf(number % 500 = 0, 500, number % 20 = 0, 404, 200) AS status,
          5120 AS bytes_sent, 420 AS bytes_received, 4 AS request_time_ms, 3 AS upstream_time_ms,
          if(number % 3 = 0, 'MISS', 'HIT') AS cache_status, 'Mozilla/5.0 bench' AS user_agent,
          '' AS referer, '' AS block_reason,
          concat('00000000000000000000ffff0a', lower(hex(toUInt8(intDiv(number, 65536) % 256))),
            lower(hex(toUInt8(intDiv(number, 256) % 256))), lower(hex(toUInt8(number % 256)))) AS client_ip_key
          FROM (SELECT number + ${offset} AS number FROM system.numbers LIMIT ${Math.min(1_000_000, ROWS - offset)})`,
        });
      }
    } else {
      await sql`insert into access_logs (node_id, site_id, time_ms, client_ip, method, host, uri, status, bytes_sent,
          bytes_received, request_time_ms, upstream_time_ms, cache_status, user_agent, referer, block_reason, client_ip_key)
        with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${sql.lit(ROWS)})
        select 1, ${sql.lit(firstSite)} + i % ${sql.lit(SITES)}, ${sql.lit(start)} + cast(i * ${sql.lit(step)} as integer),
          '10.' || ((i / 65536) % 256) || '.' || ((i / 256) % 256) || '.' || (i % 256), 'GET', 'www.example.com',
          case when i % 50 = 0 then '/login' else '/assets/' || (i % 5000) || '.js' end,
          case when i % 500 = 0 then 500 when i % 20 = 0 then 404 else 200 end,
          5120, 420, 4, 3, case when i % 3 = 0 then 'MISS' else 'HIT' end, 'Mozilla/5.0 bench', '', '',
          printf('00000000000000000000ffff0a%02x%02x%02x', (i / 65536) % 256, (i / 256) % 256, i % 256)
        from n`.execute(database.logs);
    }
    const rawSeconds = (performance.now() - seeded) / 1000;
    // The hour rollup: every site, every hour of the 30 days (in ClickHouse the lines above added some).
    seeded = performance.now();
    const firstHour = start / 1000;
    if (events.kind === 'clickhouse') {
      for (const table of ['site_traffic_hours', 'site_totals_hours']) {
        await events.clickhouse.client.command({ query: `TRUNCATE TABLE ${table}` });
      }
      await events.clickhouse.client.command({
        query: `INSERT INTO site_traffic_hours SELECT ${firstSite} + number % ${SITES} AS site_id,
          ${firstHour} + intDiv(number, ${SITES}) * 3600 AS bucket, 100 AS requests, 42000 AS bytes_in,
          512000 AS bytes_out, 95 AS status_2xx, 0 AS status_3xx, 5 AS status_4xx, 0 AS status_5xx,
          60 AS cache_hits, 1 AS blocked FROM system.numbers LIMIT ${SITES * HOURS}`,
      });
      await events.clickhouse.client.command({
        query: `INSERT INTO site_totals_hours SELECT bucket, sum(requests), sum(bytes_in), sum(bytes_out),
          sum(status_2xx), sum(status_3xx), sum(status_4xx), sum(status_5xx), sum(cache_hits), sum(blocked)
          FROM site_traffic_hours GROUP BY bucket`,
      });
    } else {
      await sql`delete from site_traffic_hours`.execute(database.logs);
      await sql`insert into site_traffic_hours (site_id, bucket, requests, bytes_in, bytes_out, status_2xx, status_3xx,
          status_4xx, status_5xx, cache_hits, blocked)
        with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${sql.lit(SITES * HOURS)})
        select ${sql.lit(firstSite)} + i % ${sql.lit(SITES)}, ${sql.lit(firstHour)} + (i / ${sql.lit(SITES)}) * 3600,
          100, 42000, 512000, 95, 0, 5, 0, 60, 1 from n`.execute(database.logs);
      // Every site's totals per hour, as the ingest keeps them beside the per-site rows.
      await sql`delete from site_totals_hours`.execute(database.logs);
      await sql`insert into site_totals_hours (bucket, requests, bytes_in, bytes_out, status_2xx, status_3xx,
          status_4xx, status_5xx, cache_hits, blocked)
        select bucket, sum(requests), sum(bytes_in), sum(bytes_out), sum(status_2xx), sum(status_3xx),
          sum(status_4xx), sum(status_5xx), sum(cache_hits), sum(blocked) from site_traffic_hours group by bucket`.execute(
        database.logs,
      );
      await sql`analyze`.execute(database.logs);
    }
    const rollupSeconds = (performance.now() - seeded) / 1000;
    // ClickHouse merges the parts just written in the background: timing starts when it is done.
    if (events.kind === 'clickhouse') {
      for (let waited = 0; waited < 300; waited++) {
        const result = await events.clickhouse.client.query({
          query: 'SELECT count() AS n FROM system.merges',
          format: 'JSONEachRow',
        });
        const [row] = await result.json<{ n: number | string }>();
        if (Number(row?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    console.log(
      `${store}: ${ROWS.toLocaleString('en')} lines seeded in ${rawSeconds.toFixed(0)} s, ${(SITES * HOURS).toLocaleString('en')} hour rows in ${rollupSeconds.toFixed(0)} s`,
    );

    const call = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers: { 'access-token': token } });
      const body = (await response.json()) as { code: number | string; msg: string };
      if (body.code !== 0) throw new Error(`${path}: ${body.code} ${body.msg}`);
    };
    const iso = (t: number) => new Date(t).toISOString();
    const weekAgo = iso(end - 7 * DAY_MS);
    const dayAgo = iso(end - DAY_MS);
    const site = (i: number) => firstSite + ((i * 7919) % SITES);
    const queries: [string, (i: number) => string][] = [
      ['one site, 7 days, no filter', (i) => `site_id=${site(i)}&from=${weekAgo}`],
      ['one site, 7 days, status 4xx', (i) => `site_id=${site(i)}&from=${weekAgo}&status=4xx`],
      [
        'one site, 7 days, URL contains "login"',
        (i) => `site_id=${site(i)}&from=${weekAgo}&url=login&url_match=contains`,
      ],
      ['every site, 24 h, client 10.1.2.0/24', () => `from=${dayAgo}&ip=10.1.2.0%2F24`],
      ['every site, 24 h, status 500', () => `from=${dayAgo}&status=500`],
      ['every site, 24 h, no filter', () => `from=${dayAgo}`],
    ];
    for (const [name, query] of queries) {
      const api = await timed(CALLS, (i) => call(`/v1/monitor/site/access-log?${query(i)}`));
      console.log(`  access log, ${name}: median ${ms(api.median)}, p99 ${ms(api.p99)}`);
    }
    // The raw page query the API's first query is, on the same store.
    const raw = await timed(CALLS, async (i) => {
      await sql`select * from access_logs where site_id = ${site(i)} and time_ms >= ${end - 7 * DAY_MS}
        and time_ms < ${end} order by time_ms desc, id desc limit 50`.execute(events.db);
    });
    console.log(`  raw SQL, one site 7 days page: median ${ms(raw.median)}, p99 ${ms(raw.p99)}`);
    const from30 = iso(end - 30 * DAY_MS);
    const charts: [string, (i: number) => string][] = [
      ['every site', () => `from=${from30}&to=${iso(end)}`],
      ['one site', (i) => `site_id=${site(i)}&from=${from30}&to=${iso(end)}`],
    ];
    for (const [name, query] of charts) {
      const chart = await timed(CALLS, (i) => call(`/v1/monitor/site/realtime?${query(i)}`));
      console.log(
        `  30-day chart, ${name} of ${SITES.toLocaleString('en')}: median ${ms(chart.median)}, p99 ${ms(chart.p99)}`,
      );
    }
  } finally {
    await events.close();
    await app.close();
    await clickhouse?.close();
  }
}

console.log(`date: ${new Date().toISOString()}  node ${process.version}  calls ${CALLS}`);
for (const store of STORES) await benchStore(store);
