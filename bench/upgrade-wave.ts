// Agent upgrade wave (issue 12): 100 simulated agents on one master, 5% of them on hosts where the
// new release fails its health check. Each agent runs the real command runner and release
// installer on a prefix of its own (real download, sha256 check, tar, switch, health check in a
// child process, rollback); a healthy one "restarts" by starting its runner again. Checked at the
// end: every failure rolled back, every node has an agent that passes its health check.
// Usage: node bench/upgrade-wave.ts  (BENCH_AGENTS, default 100; BENCH_FAILING_EVERY, default 20;
// BENCH_WAVE_PERCENT, default 10)

import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentUpgradeLog } from '@rampart/contracts';
import { silentLogger } from '../apps/agent/src/logger.ts';
import { MasterClient } from '../apps/agent/src/sync/master-client.ts';
import { CommandRunner } from '../apps/agent/src/upgrade/command-runner.ts';
import { type HealthResult, ReleaseInstaller } from '../apps/agent/src/upgrade/release-installer.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { insertBenchNode } from './nodes.ts';
import { freePort, median, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100);
const FAILING_EVERY = Number(process.env.BENCH_FAILING_EVERY ?? 20);
const WAVE_PERCENT = Number(process.env.BENCH_WAVE_PERCENT ?? 10);
const PASSWORD = 'bench-Admin-Pass-1';

// The agent a node runs: it prints its usage (the health check), unless the host breaks this release.
const agentMain = (version: string, breaksOn: string) =>
  `if (process.env.SIM_BROKEN === '${breaksOn}') throw new Error('cannot start on this host');\n` +
  `process.stdout.write('Usage: agent ${version}\\n');\n`;

const work = tempDir('rampart-upgrade-wave-');
const dataDir = join(work, 'master');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const master = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
  RAMPART_PORT: String(port),
  RAMPART_DATA_DIR: dataDir,
  RAMPART_ADMIN_PASSWORD: PASSWORD,
  RAMPART_LOG_LEVEL: 'warn',
});

const controller = new AbortController();
try {
  await waitFor200(`${base}/v1/common/sysinfo`, performance.now());
  const database = openDatabase({ dataDir });
  const credentials: string[] = [];
  for (let i = 0; i < AGENTS; i++) credentials.push(await insertBenchNode(database.db, `sim-${i}`));
  await database.close();

  const login = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'access-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const envelope = (await response.json()) as { code: number | string; msg: string; data: T };
    if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  };

  // The release: an agent tree as the master's bundle lays it out.
  const source = join(work, 'release');
  mkdirSync(join(source, 'apps/agent/src'), { recursive: true });
  writeFileSync(join(source, 'apps/agent/src/main.ts'), agentMain('2.0.0', 'yes'));
  writeFileSync(join(source, 'apps/agent/package.json'), '{"version":"2.0.0"}');
  execFileSync('tar', ['-czf', join(work, 'release.tar.gz'), '-C', source, 'apps']);
  const bytes = readFileSync(join(work, 'release.tar.gz'));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const uploaded = await fetch(`${base}/v1/agent/upgrades/releases?version=2.0.0&sha256=${sha256}`, {
    method: 'POST',
    headers: { 'access-token': token, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const uploadAnswer = (await uploaded.json()) as { code: number | string; msg: string; data: { id: number } };
  if (uploadAnswer.code !== 0) throw new Error(`upload: ${uploadAnswer.code} ${uploadAnswer.msg}`);
  const release = uploadAnswer.data;

  // Every agent installed at version 1 under a prefix of its own; every FAILING_EVERY-th host breaks 2.0.0.
  const failing = new Set<number>();
  const installers = credentials.map((_credential, i) => {
    const prefix = join(work, `node-${i}`, 'rampart-agent');
    mkdirSync(join(prefix, 'node/bin'), { recursive: true });
    writeFileSync(join(prefix, 'node/bin/node'), 'runtime');
    mkdirSync(join(prefix, 'apps/agent/src'), { recursive: true });
    writeFileSync(join(prefix, 'apps/agent/src/main.ts'), agentMain('1.0.0', 'never'));
    if (i % FAILING_EVERY === FAILING_EVERY - 1) failing.add(i);
    const healthCheck = (at: string) =>
      new Promise<HealthResult>((done) => {
        execFile(
          process.execPath,
          [join(at, 'apps/agent/src/main.ts'), '--help'],
          { env: { ...process.env, SIM_BROKEN: failing.has(i) ? 'yes' : 'no' }, timeout: 30_000 },
          (error, stdout, stderr) => done({ ok: !error && stdout.startsWith('Usage:'), output: `${stdout}${stderr}` }),
        );
      });
    return new ReleaseInstaller({ prefix, healthCheck });
  });

  let restarts = 0;
  const runAgent = (i: number): Promise<void> =>
    new CommandRunner({
      client: new MasterClient(base),
      credential: credentials[i] ?? '',
      dataDir: join(work, `node-${i}`),
      installer: installers[i] as ReleaseInstaller,
      selfTest: () => Promise.reject(new Error('not in this bench')),
      onUpgraded: () => {
        restarts++;
        // The service manager starts the agent again: it polls on.
        setImmediate(() => void runAgent(i));
      },
      log: silentLogger,
    }).run(controller.signal);
  for (let i = 0; i < AGENTS; i++) void runAgent(i);

  const started = performance.now();
  const upgrade = await api<AgentUpgradeLog>('POST', '/v1/agent/upgrades', {
    release_id: release.id,
    wave_percent: WAVE_PERCENT,
    max_failures: Math.ceil(AGENTS / 10),
  });
  let log = upgrade;
  while (log.upgrade.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    log = await api<AgentUpgradeLog>('GET', `/v1/agent/upgrades/log/${upgrade.upgrade.id}`);
  }
  const seconds = (performance.now() - started) / 1000;
  controller.abort();

  // After the wave: what each node runs, and whether it passes its own health check.
  let working = 0;
  let onNew = 0;
  for (const [i, installer] of installers.entries()) {
    const main = readFileSync(join(installer.prefix, 'apps/agent/src/main.ts'), 'utf8');
    if (main.includes('2.0.0')) onNew++;
    const health = await new Promise<boolean>((done) =>
      execFile(
        process.execPath,
        [join(installer.prefix, 'apps/agent/src/main.ts'), '--help'],
        { env: { ...process.env, SIM_BROKEN: failing.has(i) ? 'yes' : 'no' } },
        (error) => done(!error),
      ),
    );
    if (health) working++;
  }
  const byState = (state: string) => log.nodes.filter((node) => node.state === state);
  const rolledBack = byState('rolled_back');
  const rolledBackRight = rolledBack.every((node) => failing.has(Number(node.name.slice('sim-'.length))));
  const waveSizes = new Map<number, number>();
  for (const node of log.nodes) if (node.wave !== null) waveSizes.set(node.wave, (waveSizes.get(node.wave) ?? 0) + 1);
  const perNode = log.nodes.map((node) => Date.parse(node.updated_at) - Date.parse(log.upgrade.created_at));

  console.log(`agents ${AGENTS}, failing their health check ${failing.size}, waves of ${WAVE_PERCENT}% after one node`);
  console.log(
    `rollout: ${log.upgrade.state}${log.upgrade.reason ? ` (${log.upgrade.reason})` : ''} in ${seconds.toFixed(1)} s, ${waveSizes.size} waves (${[...waveSizes.values()].join(', ')})`,
  );
  console.log(
    `upgraded ${byState('done').length}, rolled back ${rolledBack.length} (all on failing hosts: ${rolledBackRight}), failed ${byState('failed').length + byState('timeout').length}, restarts ${restarts}`,
  );
  console.log(
    `after: ${onNew} nodes on 2.0.0, ${AGENTS - onNew} on 1.0.0; nodes without a working agent: ${AGENTS - working}`,
  );
  console.log(
    `time from start to a node's answer: p50 ${(median(perNode) / 1000).toFixed(2)} s, max ${(Math.max(...perNode) / 1000).toFixed(2)} s`,
  );
  if (AGENTS - working > 0 || rolledBack.length !== failing.size || !rolledBackRight || log.upgrade.state !== 'done') {
    process.exitCode = 1;
  }
} finally {
  controller.abort();
  await stop(master);
  rmSync(work, { recursive: true, force: true });
}
