// The usage call for one site with a month of 5-minute samples (8,640 rows, a 30-day month):
// GET /v1/monitor/usage end to end (HTTP, auth, validation, both reads, the 95th percentile)
// against the same two reads as raw SQL on the same SQLite file, as a ratio in one run.
// Usage: node bench/usage.ts
import { sql } from 'kysely';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { median } from './support.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const SAMPLE_S = 300;
const DAY_S = 86_400;

const { app, database, base } = await startInProcessMaster('rampart-usage-');
try {
  const post = async <T>(path: string, token: string | null, body: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { 'access-token': token }) },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as { code: number | string; msg: string; data: T };
    if (envelope.code !== 0) throw new Error(`${path}: ${envelope.msg}`);
    return envelope.data;
  };
  const token = (
    await post<{ access_token: string }>('/v1/login', null, { account: 'admin', password: BENCH_ADMIN_PASSWORD })
  ).access_token;
  const site = await post<{ id: number }>('/v1/sites', token, {
    domains: ['usage-bench.example.com'],
    origins: [{ address: '127.0.0.1', port: 8080, weight: 1, backup: false }],
  });

  // September 2026: 30 days, every 5-minute sample with traffic, and its 30 day rows.
  const from = Date.UTC(2026, 8, 1) / 1000;
  const samples = Array.from({ length: 30 * 288 }, (_, i) => ({
    site_id: site.id,
    bucket: from + i * SAMPLE_S,
    requests: 100 + (i % 97),
    bytes_in: 10_000,
    bytes_out: 1_000_000 + ((i * 7919) % 500_000),
  }));
  for (let i = 0; i < samples.length; i += 500) {
    await database.logs
      .insertInto('site_traffic_5min')
      .values(samples.slice(i, i + 500))
      .execute();
  }
  const days = Array.from({ length: 30 }, (_, d) => {
    const day = samples.slice(d * 288, (d + 1) * 288);
    const sum = (key: 'requests' | 'bytes_in' | 'bytes_out') => day.reduce((total, row) => total + row[key], 0);
    return {
      site_id: site.id,
      bucket: from + d * DAY_S,
      requests: sum('requests'),
      bytes_in: sum('bytes_in'),
      bytes_out: sum('bytes_out'),
      status_2xx: sum('requests'),
      status_3xx: 0,
      status_4xx: 0,
      status_5xx: 0,
      cache_hits: 0,
      blocked: 0,
    };
  });
  await database.logs.insertInto('site_traffic_days').values(days).execute();

  const url = `${base}/v1/monitor/usage?month=2026-09&site_id=${site.id}`;
  const callOnce = async () => {
    const response = await fetch(url, { headers: { 'access-token': token } });
    const body = (await response.json()) as { code: number; data: { samples: number; total: { p95_bps: number } } };
    if (body.code !== 0 || body.data.samples !== 8640) throw new Error('usage call failed');
  };
  const to = from + 30 * DAY_S;
  const rawOnce = async () => {
    await sql`select site_id, bucket, bytes_out from site_traffic_5min
      where site_id in (${site.id}) and bucket >= ${from} and bucket < ${to}`.execute(database.logs);
    await sql`select site_id, bucket, requests, bytes_in, bytes_out, cache_hits, blocked from site_traffic_days
      where site_id in (${site.id}) and bucket >= ${from} and bucket < ${to}`.execute(database.logs);
  };
  const timed = async (run: () => Promise<void>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) {
    await callOnce();
    await rawOnce();
  }
  // Alternating, so that both see the same machine load.
  const callMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    callMs.push(await timed(callOnce));
    rawMs.push(await timed(rawOnce));
  }
  const call = median(callMs);
  const raw = median(rawMs);
  console.log(`usage call, one site, 8640 samples: median ${call.toFixed(2)} ms over ${CALLS} calls`);
  console.log(`raw SQL of the same reads:          median ${raw.toFixed(2)} ms`);
  console.log(`ratio raw / call (time): ${(raw / call).toFixed(3)}`);
} finally {
  await app.close();
  await database.close();
}
