// CPU time of a signed-in API call in process, against a bare Fastify route in the same process: the
// per-request cost of authentication, the route policy hook, the envelope and the response schema,
// without the network or wrk's scheduling (steadier than req/s on a busy machine). Usage:
//   node_modules/.bin/node bench/signed-in-cpu.ts   [BENCH_CALLS=20000 BENCH_ROUNDS=5]
import Fastify from 'fastify';
import { buildApp } from '../apps/master/src/app.ts';
import { readConfig } from '../apps/master/src/config.ts';
import { median, tempDir } from './support.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PASSWORD = 'bench-admin-pass';

type Injector = (url: string, headers: Record<string, string>) => Promise<{ statusCode: number }>;

/** Microseconds of this process's CPU per call, over CALLS calls made 32 at a time. */
async function cpuPerCall(inject: Injector, url: string, headers: Record<string, string>): Promise<number> {
  const started = process.cpuUsage();
  for (let done = 0; done < CALLS; done += 32) {
    const answers = await Promise.all(Array.from({ length: 32 }, () => inject(url, headers)));
    if (answers.some((answer) => answer.statusCode !== 200)) throw new Error(`${url} did not answer 200`);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / CALLS;
}

const bare = Fastify();
bare.get('/bare', async () => ({ code: 0, msg: 'ok', data: { hello: 'world' } }));
await bare.ready();

const master = await buildApp(
  readConfig({ RAMPART_DATA_DIR: tempDir('rampart-bench-cpu-'), RAMPART_ADMIN_PASSWORD: PASSWORD }),
  { logger: false, background: false },
);
const login = await master.inject({
  method: 'POST',
  url: '/v1/login',
  payload: { account: 'admin', password: PASSWORD },
});
const token = (login.json() as { data: { access_token: string } }).data.access_token;

const injectBare: Injector = (url, headers) => bare.inject({ method: 'GET', url, headers });
const injectMaster: Injector = (url, headers) => master.inject({ method: 'GET', url, headers });
// Warm both (JIT, compiled schemas) before measuring.
await cpuPerCall(injectBare, '/bare', {});
await cpuPerCall(injectMaster, '/v1/user', { 'access-token': token });

const bareRuns: number[] = [];
const userRuns: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  bareRuns.push(await cpuPerCall(injectBare, '/bare', {}));
  userRuns.push(await cpuPerCall(injectMaster, '/v1/user', { 'access-token': token }));
}
const bareMedian = median(bareRuns);
const userMedian = median(userRuns);
console.log(`date: ${new Date().toISOString()}  node ${process.version}  ${CALLS} calls x ${ROUNDS} rounds (medians)`);
console.log(`bare Fastify route: ${bareMedian.toFixed(1)} µs CPU a call`);
console.log(
  `GET /v1/user:       ${userMedian.toFixed(1)} µs CPU a call, ratio ${(bareMedian / userMedian).toFixed(3)}`,
);
await master.close();
await bare.close();
