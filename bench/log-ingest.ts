// Log ingest on the master: lines/s through POST /agent/v1/logs (validation, exactly-once batch
// bookkeeping, insert, rollups) against a raw bulk insert of the same rows into the same store: the
// SQLite logs file, and ClickHouse (RAMPART_LOGS_URL, a private instance started here; the raw
// insert is one JSONEachRow insert a batch, as the store writes it, its materialized views included).
// Also the CPU this process used a line (client and master; ClickHouse's server apart).
// Usage: node bench/log-ingest.ts   (BENCH_STORES=sqlite or clickhouse to run one)

import type { AccessLogLine } from '@rampart/contracts';
import { openEventStore } from '../apps/master/src/db/events.ts';
import { launchClickHouse } from '../apps/master/src/test/clickhouse-server.ts';
import { startInProcessMaster } from './in-process.ts';
import { insertBenchNode } from './nodes.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 50);
const LINES = 1000;
const STORES = (process.env.BENCH_STORES ?? 'sqlite,clickhouse').split(',');

const now = Date.now();
const line = (i: number): AccessLogLine => ({
  time: now / 1000 + i / 1000,
  site_id: 1 + (i % 50),
  client_ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
  method: 'GET',
  host: 'www.example.com',
  uri: `/assets/${i}.js?v=3`,
  status: 200,
  bytes_sent: 5120,
  bytes_received: 420,
  request_time: 0.004,
  upstream_time: 0.003,
  cache_status: 'HIT',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
  referer: 'https://www.example.com/',
  block_reason: '',
});
const lines = Array.from({ length: LINES }, (_, i) => line(i));
const rows = lines.map((entry) => ({
  node_id: 1,
  site_id: entry.site_id,
  time_ms: Math.round(entry.time * 1000),
  client_ip: entry.client_ip,
  method: entry.method,
  host: entry.host,
  uri: entry.uri,
  status: entry.status,
  bytes_sent: entry.bytes_sent,
  bytes_received: entry.bytes_received,
  request_time_ms: 4,
  upstream_time_ms: 3,
  cache_status: entry.cache_status,
  user_agent: entry.user_agent,
  referer: entry.referer,
  block_reason: entry.block_reason,
}));

async function benchStore(store: string) {
  const clickhouse = store === 'clickhouse' ? await launchClickHouse() : undefined;
  const env: Record<string, string> = clickhouse ? { RAMPART_LOGS_URL: `${clickhouse.httpUrl}/bench` } : {};
  const { app, database, base } = await startInProcessMaster('rampart-ingest-', undefined, env);
  const events = await openEventStore(env.RAMPART_LOGS_URL, database.logs);
  try {
    const credential = await insertBenchNode(database.db, 'bench');
    const cpuUs = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / (BATCHES * LINES);
    };
    let cpu = process.cpuUsage();
    let started = performance.now();
    for (let seq = 1; seq <= BATCHES; seq++) {
      const response = await fetch(`${base}/agent/v1/logs`, {
        method: 'POST',
        headers: { 'node-token': credential, 'content-type': 'application/json' },
        body: JSON.stringify({ seq, access: lines, stream: [] }),
      });
      if (((await response.json()) as { code: number }).code !== 0) throw new Error('ingest failed');
    }
    const apiRate = (BATCHES * LINES) / ((performance.now() - started) / 1000);
    const apiCpu = cpuUs(cpu);
    cpu = process.cpuUsage();

    started = performance.now();
    for (let batch = 0; batch < BATCHES; batch++) {
      if (events.kind === 'clickhouse') {
        const first = 1_000_000_000 + batch * LINES;
        await events.clickhouse.insert(
          'access_logs',
          rows.map((row, i) => ({ id: first + i, ...row, client_ip_key: null })),
        );
      } else {
        await database.logs.transaction().execute(async (trx) => {
          for (let i = 0; i < rows.length; i += 500)
            await trx
              .insertInto('access_logs')
              .values(rows.slice(i, i + 500))
              .execute();
        });
      }
    }
    const rawRate = (BATCHES * LINES) / ((performance.now() - started) / 1000);
    const rawCpu = cpuUs(cpu);
    // CPU of this process (client and master in one; ClickHouse's server not included): steadier than rates on a busy machine.
    console.log(
      `${store}: POST /agent/v1/logs ${apiRate.toFixed(0)} lines/s; raw bulk insert ${rawRate.toFixed(0)} lines/s; ratio ${(apiRate / rawRate).toFixed(2)}; ` +
        `CPU here ${apiCpu.toFixed(1)} us/line through the API, ${rawCpu.toFixed(1)} us/row raw`,
    );
  } finally {
    await events.close();
    await app.close();
    await clickhouse?.close();
  }
}

console.log(`date: ${new Date().toISOString()}  node ${process.version}  ${BATCHES} batches of ${LINES} lines`);
for (const store of STORES) await benchStore(store);
