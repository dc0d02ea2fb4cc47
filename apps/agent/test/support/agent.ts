import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultNginxUser } from '../../src/apply/nginx-user.ts';
import type { AgentOptions } from '../../src/options.ts';
import { NGINX_BINARY } from './edge.ts';
import { freePort } from './ports.ts';

export const INSTALL_TOKEN = 'install-token-0123456789';

/** Agent options for a test: its own data directory and loopback ports, short intervals. */
export async function testAgentOptions(master: string, overrides: Partial<AgentOptions> = {}): Promise<AgentOptions> {
  return {
    master,
    token: INSTALL_TOKEN,
    dataDir: await mkdtemp(join(tmpdir(), 'rampart-agent-')),
    controlPort: await freePort(),
    listenAddress: '127.0.0.1',
    nginxBinary: NGINX_BINARY,
    modulesDir: '/usr/lib/nginx/modules',
    nginxUser: defaultNginxUser(),
    workerProcesses: 1,
    spoolMaxBytes: 64 * 1024 * 1024,
    stopNginxOnExit: false,
    pollWaitSeconds: 2,
    metricsIntervalMs: 500,
    statusIntervalMs: 1000,
    proveTimeoutMs: 5000,
    registrationPollMs: 100,
    logRotateBytes: 256 * 1024 * 1024,
    ...overrides,
  };
}
