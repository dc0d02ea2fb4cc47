// 30-day realtime charts of streams and nodes read from the hour rollups, end to end
// (HTTP, auth, validation, the read, every interval filled): every stream of an admin with
// BENCH_STREAMS streams (default 1,000) with traffic in every hour, one stream, and every node of
// BENCH_NODES nodes (default 100). Prints the median and p99 of each call over BENCH_CALLS calls.
// Usage: node bench/monitor-stream-node.ts
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { median, percentile } from './support.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const NODES = Number(process.env.BENCH_NODES ?? 100);
const HOURS = 30 * 24;
const CHUNK = 500;

const p99 = (values: number[]) => percentile(values, 0.99);

const { app, database, base } = await startInProcessMaster('rampart-monitor-bench-');
try {
  const login = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

  // One real stream (the one-stream call resolves its id); the others exist only in the rollup.
  const created = await fetch(`${base}/v1/streams`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': token },
    body: JSON.stringify({
      listen_port: 20_000,
      protocol: 'tcp',
      origins: [{ address: '127.0.0.1', port: 3306, weight: 1, backup: false }],
    }),
  });
  const streamId = ((await created.json()) as { data: { id: number } }).data.id;
  const to = Math.floor(Date.now() / 3_600_000) * 3600;
  const from = to - HOURS * 3600;
  const hours = Array.from({ length: HOURS }, (_, i) => from + i * 3600);
  let rows = [];
  for (let stream = streamId; stream < streamId + STREAMS; stream++) {
    for (const bucket of hours) {
      rows.push({
        stream_id: stream,
        bucket,
        connections: 10,
        failed: 1,
        bytes_in: 1000,
        bytes_out: 9000,
        session_ms: 5000,
      });
      if (rows.length === CHUNK) {
        await database.logs.insertInto('stream_traffic_hours').values(rows).execute();
        rows = [];
      }
    }
  }
  if (rows.length > 0) await database.logs.insertInto('stream_traffic_hours').values(rows).execute();
  // Stream 0: every stream's totals, as the ingest keeps them.
  const totals = hours.map((bucket) => ({
    stream_id: 0,
    bucket,
    connections: 10 * STREAMS,
    failed: STREAMS,
    bytes_in: 1000 * STREAMS,
    bytes_out: 9000 * STREAMS,
    session_ms: 5000 * STREAMS,
  }));
  for (let i = 0; i < totals.length; i += CHUNK) {
    await database.logs
      .insertInto('stream_traffic_hours')
      .values(totals.slice(i, i + CHUNK))
      .execute();
  }
  let nodeRows = [];
  for (let node = 1; node <= NODES; node++) {
    for (const bucket of hours) {
      nodeRows.push({
        node_id: node,
        bucket,
        reports: 360,
        extended_reports: 360,
        bytes_in: 1e6,
        bytes_out: 1e7,
        requests: 5000,
        connections_sum: 3600,
        cpu_sum: 7200,
        memory_used_sum: 360e9,
        memory_total_sum: 1440e9,
        load1_sum: 180,
        load5_sum: 180,
        load15_sum: 180,
        disk_used_sum: 3600e9,
        disk_total_sum: 36000e9,
      });
      if (nodeRows.length === CHUNK / 2) {
        await database.logs.insertInto('node_metric_hours').values(nodeRows).execute();
        nodeRows = [];
      }
    }
  }
  if (nodeRows.length > 0) await database.logs.insertInto('node_metric_hours').values(nodeRows).execute();

  const range = `from=${from}&to=${to}`;
  const measure = async (label: string, path: string) => {
    const url = `${base}${path}`;
    const once = async () => {
      const started = performance.now();
      const response = await fetch(url, { headers: { 'access-token': token } });
      const body = (await response.json()) as { code: number; data: { interval: number; points: unknown[] } };
      if (body.code !== 0 || body.data.interval !== 3600 || body.data.points.length !== HOURS) {
        throw new Error(`${label}: ${JSON.stringify(body).slice(0, 200)}`);
      }
      return performance.now() - started;
    };
    for (let i = 0; i < 10; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) times.push(await once());
    console.log(`${label}: median ${median(times).toFixed(2)} ms, p99 ${p99(times).toFixed(2)} ms over ${CALLS} calls`);
  };
  await measure(
    `stream realtime, 30 days, every stream (${STREAMS} x ${HOURS} rows)`,
    `/v1/monitor/stream/realtime?${range}`,
  );
  await measure('stream realtime, 30 days, one stream', `/v1/monitor/stream/realtime?stream_id=${streamId}&${range}`);
  await measure(`node realtime, 30 days, every node (${NODES} x ${HOURS} rows)`, `/v1/monitor/node/realtime?${range}`);
} finally {
  await app.close();
  await database.close();
}
