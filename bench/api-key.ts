// An API key against a session token on the same call, in one run: GET /v1/sites (a tenant-scoped
// list) answered for the same user either way. Usage: node bench/api-key.ts  (needs wrk)
import { join } from 'node:path';
import { alternate, freePort, ROOT, start, stop, tempDir, waitFor200, wrkRounds } from './support.ts';

const PASSWORD = 'bench-admin-pass';

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

async function call<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['access-token'] = token;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

const { seconds, rounds, header } = wrkRounds();
const port = await freePort();
const master = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
  RAMPART_PORT: String(port),
  RAMPART_DATA_DIR: tempDir('rampart-bench-'),
  RAMPART_ADMIN_PASSWORD: PASSWORD,
  RAMPART_LOG_LEVEL: 'warn',
});
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/v1/common/sysinfo`, performance.now());
  const session = (
    await call<{ access_token: string }>(base, 'POST', '/v1/login', null, {
      account: 'admin',
      password: PASSWORD,
    })
  ).access_token;
  for (let i = 0; i < 20; i++) {
    await call(base, 'POST', '/v1/sites', session, {
      domains: [`bench-${i}.example.com`],
      origins: [{ address: '127.0.0.1', port: 8080, weight: 1, backup: false }],
    });
  }
  // The key as scripts use it: read-only, limited to loopback (the allow list is checked on every call).
  const key = (
    await call<{ token: string }>(base, 'POST', '/v1/api-key', session, {
      scope: 'read',
      allow_ips: ['127.0.0.1', '::1'],
    })
  ).token;
  const url = `${base}/v1/sites?page=1&limit=20`;
  const result = alternate(
    { url, lua: `wrk.headers["Access-Token"] = "${session}"` },
    { url, lua: `wrk.headers["Access-Token"] = "${key}"` },
    seconds,
    rounds,
  );
  console.log(header);
  console.log(`GET /v1/sites with a session token: ${result.a.toFixed(0)} req/s, p99 ${result.aP99.toFixed(2)} ms`);
  console.log(`GET /v1/sites with an API key:      ${result.b.toFixed(0)} req/s, p99 ${result.bP99.toFixed(2)} ms`);
  console.log(`ratio key / session: ${(result.b / result.a).toFixed(3)}`);
} finally {
  await stop(master);
}
