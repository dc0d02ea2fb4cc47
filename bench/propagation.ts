// Propagation through the master: a site change until 100 simulated agents, each holding a config
// long poll, have the new snapshot and acknowledged it with a status report; and the cost of a
// snapshot at 1k and 10k sites. Baseline: the same number of bare GETs to /v1/common/sysinfo.
// Usage: node bench/propagation.ts

import type { ConfigAnswer, SiteSettings } from '@rampart/contracts';
import { sharedPart } from '../apps/master/src/modules/agent/snapshot.ts';
import { changeConfig } from '../apps/master/src/modules/config/config-version.ts';
import { insertSite } from '../apps/master/src/modules/sites/sites.repository.ts';
import { startInProcessMaster } from './in-process.ts';
import { insertBenchNode } from './nodes.ts';
import { median, switchDomainProofOff } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 100);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

const { app, database, base } = await startInProcessMaster('rampart-prop-');
const db = database.db;

const login = (await (
  await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'bench-admin-pass' }),
  })
).json()) as { data: { access_token: string } };
const token = login.data.access_token;
await switchDomainProofOff(base, token); // the snapshots hold the sites, at 1k and 10k too
const api = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { 'access-token': token, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

// Nodes are inserted directly with known credentials: registration is not what is measured.
const credentials: string[] = [];
for (let i = 0; i < AGENTS; i++) credentials.push(await insertBenchNode(db, `sim-${i}`));
const origin = { address: '127.0.0.1', port: 9000, weight: 1, backup: false };
const site = (await (await api('POST', '/v1/sites', { domains: ['prop.example.com'], origins: [origin] })).json()) as {
  data: { id: number };
};

const acked = new Map<number, number>(); // version → agents that acknowledged it
const waiters: { version: number; resolve: () => void }[] = [];
let running = true;
const stopAgents = new AbortController();
async function agent(credential: string) {
  let version = 0;
  while (running) {
    const response = await fetch(`${base}/agent/v1/config?version=${version}&wait=30`, {
      headers: { 'node-token': credential, 'accept-encoding': 'gzip' },
      signal: stopAgents.signal,
    }).catch(() => undefined);
    if (!response) return;
    const answer = ((await response.json()) as { data: ConfigAnswer }).data;
    if (!answer.changed) continue;
    version = answer.version;
    await fetch(`${base}/agent/v1/status`, {
      method: 'POST',
      headers: { 'node-token': credential, 'content-type': 'application/json' },
      body: JSON.stringify({ applied_version: version, apply_errors: [], last_error: '', dropped_log_lines: 0 }),
    });
    acked.set(version, (acked.get(version) ?? 0) + 1);
    for (const waiter of waiters.filter((w) => (acked.get(w.version) ?? 0) >= AGENTS)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
const agents = credentials.map((credential) => agent(credential));
await new Promise((resolve) => setTimeout(resolve, 1500));

const propagation: number[] = [];
for (let i = 0; i < CHANGES; i++) {
  const started = performance.now();
  const response = (await (
    await api('PUT', `/v1/sites/${site.data.id}`, { origins: [{ ...origin, port: 9000 + (i % 100) + 1 }] })
  ).json()) as { code: number };
  if (response.code !== 0) throw new Error('change failed');
  const { version } = await db.selectFrom('config_state').select('version').executeTakeFirstOrThrow();
  await new Promise<void>((resolve) => {
    if ((acked.get(version) ?? 0) >= AGENTS) resolve();
    else waiters.push({ version, resolve });
  });
  propagation.push(performance.now() - started);
}

const baseline: number[] = [];
for (let i = 0; i < 20; i++) {
  const started = performance.now();
  await Promise.all(credentials.map(() => fetch(`${base}/v1/common/sysinfo`).then((r) => r.arrayBuffer())));
  baseline.push(performance.now() - started);
}

// Snapshot cost, with the simulated agents gone (they share this process): the shared part for 1k
// and 10k sites built once per version, then one node's answer served from it.
running = false;
stopAgents.abort();
await Promise.allSettled(agents);
const snapshotFigures: string[] = [];
for (const total of [1000, 10000]) {
  const existing = Number(
    (
      await db
        .selectFrom('sites')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const now = Date.now();
  await changeConfig(db, async (trx, version) => {
    for (let i = existing; i < total; i++) {
      const settings: SiteSettings = {
        ...JSON.parse(
          (await trx.selectFrom('sites').select('settings').where('id', '=', site.data.id).executeTakeFirstOrThrow())
            .settings,
        ),
        domains: [`s${i}.bench.example.com`],
      };
      // Through the repository, so the domain and its search postings are written as the API writes them.
      await insertSite(trx, { userId: 1, groupId: null, name: `s${i}`, settings }, version, now);
    }
  });
  const builds: number[] = [];
  let part = await sharedPart(db, 0);
  for (let run = 0; run < 3; run++) {
    const version = await changeConfig(db, async (_trx, next) => next); // a fresh version forces a rebuild
    const started = performance.now();
    part = await sharedPart(db, version);
    builds.push(performance.now() - started);
  }
  const buildMs = median(builds);
  const fetchStarted = performance.now();
  const response = await fetch(`${base}/agent/v1/config?version=0`, {
    headers: { 'node-token': credentials[0] ?? '', 'accept-encoding': 'gzip' },
  });
  const wire = Number(response.headers.get('content-length') ?? 0);
  await response.arrayBuffer();
  snapshotFigures.push(
    `${total} sites: shared part built in ${buildMs.toFixed(0)} ms, ${(part.json.length / 1e6).toFixed(2)} MB JSON, ${(part.gzip.length / 1e3).toFixed(0)} kB gzip; one node's cached answer ${(performance.now() - fetchStarted).toFixed(1)} ms, ${(wire / 1e3).toFixed(0)} kB on the wire`,
  );
}

running = false;
console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${AGENTS} simulated agents, ${CHANGES} changes`,
);
console.log(
  `change → all ${AGENTS} agents acknowledged: p50 ${percentile(propagation, 0.5).toFixed(1)} ms, p95 ${percentile(propagation, 0.95).toFixed(1)} ms, max ${Math.max(...propagation).toFixed(1)} ms`,
);
console.log(
  `baseline, ${AGENTS} parallel GET /v1/common/sysinfo: median ${median(baseline).toFixed(1)} ms (p95 ratio ${(percentile(propagation, 0.95) / median(baseline)).toFixed(1)}×)`,
);
for (const line of snapshotFigures) console.log(line);
await app.close();
process.exit(0);
