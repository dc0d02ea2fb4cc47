import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCommandLine, agentNginx } from './agent.ts';
import { acceptFirstPendingNode, api, type MasterProcess } from './master-process.ts';
import { freePort } from './ports.ts';

const MAIN = join(import.meta.dirname, '../../src/main.ts');

/** An agent process that registered with a master and was accepted by its admin, as a node of its own. */
export interface AcceptedAgent {
  /** Its data directory (its nginx's config is under `nginx/current`). */
  dataDir: string;
  /** The node's HTTP and HTTPS ports on loopback, as accepted. */
  ports: { http: number; https: number };
  /** Stops the agent and its nginx (which keeps serving when the agent stops) and removes the directory. */
  stop(): Promise<void>;
}

/**
 * Starts the agent (`src/main.ts`, one nginx worker, the short poll of tests) with the master's
 * install token, and accepts it as the first pending node on free ports, or those given.
 */
export async function startAcceptedAgent(
  master: MasterProcess,
  admin: string,
  options: { name: string; ports?: { http: number; https: number }; ips?: string[] },
): Promise<AcceptedAgent> {
  const ports = options.ports ?? { http: await freePort(), https: await freePort() };
  const dataDir = await mkdtemp(join(tmpdir(), `rampart-${options.name}-agent-`));
  const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
  const args = agentCommandLine({
    master: master.url,
    token: install_token,
    dataDir,
    controlPort: await freePort(),
    fast: true,
  });
  let agent: ChildProcess | null = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr?.resume();
  const stop = async () => {
    const child = agent;
    agent = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await agentNginx(dataDir).stop(2000);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await acceptFirstPendingNode(master, admin, {
      http_port: ports.http,
      https_port: ports.https,
      ...(options.ips ? { ips: options.ips } : {}),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, ports, stop };
}
