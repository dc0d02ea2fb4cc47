import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Answer, edgeRequest, eventually } from '../../apps/agent/test/support/http.ts';
import { freePort } from '../../apps/agent/test/support/ports.ts';
import { adminToken, callApi } from './api.ts';
import type { RunningMaster } from './master.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const AGENT_MAIN = join(ROOT, 'apps/agent/src/main.ts');
const NGINX = process.env.RAMPART_NGINX ?? '/usr/sbin/nginx';

export interface EdgeNode {
  ports: { http: number; https: number };
  /** One request to the edge with this Host (and SNI over HTTPS). */
  request: (host: string, options?: { path?: string; tls?: boolean }) => Promise<Answer>;
  /** What the agent printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * A real edge beside the suite's master: the agent process (its documented command line) with
 * Debian's nginx on 127.0.0.1 high ports, registered with the install token and accepted by the admin
 * through the API; resolves once the node has applied its first config.
 */
export async function startEdgeNode(master: RunningMaster): Promise<EdgeNode> {
  const admin = await adminToken(master.baseUrl, master.adminPassword);
  const dataDir = await mkdtemp(join(tmpdir(), 'rampart-e2e-edge-'));
  const ports = { http: await freePort(), https: await freePort() };
  const { install_token } = await callApi<{ install_token: string }>(master.baseUrl, 'GET', '/v1/nodes/install-token', {
    token: admin,
  });
  // biome-ignore format: one flag and its value a line
  const args = [
    '--master', master.baseUrl,
    '--token', install_token,
    '--data-dir', dataDir,
    '--control-port', String(await freePort()),
    '--listen-address', '127.0.0.1',
    '--workers', '1',
    '--poll-wait', '2',
    '--metrics-interval', '1',
    '--nginx', NGINX,
    '--stop-nginx-on-exit',
  ];
  const agent: ChildProcess = spawn(NODE, [AGENT_MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  agent.stdout?.on('data', collect);
  agent.stderr?.on('data', collect);
  const output = () => log.slice(-8000);

  const stop = async () => {
    if (agent.exitCode === null) {
      const exited = new Promise((done) => agent.once('exit', done));
      agent.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (agent.exitCode === null) agent.kill('SIGKILL');
    }
    await stopLeftoverNginx(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const pending = await eventually(async () => {
      const { list } = await callApi<{ list: { id: number }[] }>(master.baseUrl, 'GET', '/v1/pending-nodes', {
        token: admin,
      });
      if (!list[0]) throw new Error(`the agent has not registered yet:\n${output()}`);
      return list[0];
    }, 20_000);
    await callApi(master.baseUrl, 'POST', '/v1/nodes', {
      token: admin,
      body: { pending_id: pending.id, http_port: ports.http, https_port: ports.https },
    });
    await eventually(async () => {
      const { list } = await callApi<{ list: { applied_version: number }[] }>(master.baseUrl, 'GET', '/v1/nodes', {
        token: admin,
      });
      if (!((list[0]?.applied_version ?? 0) > 0)) throw new Error(`the node has applied no config yet:\n${output()}`);
    }, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ports,
    request: (host, { path = '/', tls = false } = {}) =>
      edgeRequest(tls ? ports.https : ports.http, { host, path, tls }),
    output,
    stop,
  };
}

/** nginx outlives a killed agent: stop it by its pid file (under the agent's data directory) if it still runs. */
async function stopLeftoverNginx(dataDir: string) {
  const pid = Number((await readFile(join(dataDir, 'nginx/run/nginx.pid'), 'utf8').catch(() => '')).trim());
  if (!(pid > 0)) return;
  // A stale pid file must not stop some other process that got the number since.
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('nginx') || !command.includes(dataDir)) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // already gone
  }
  await eventually(async () => {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    throw new Error(`nginx ${pid} is still running`);
  }, 5000).catch(() => process.kill(pid, 'SIGKILL'));
}
