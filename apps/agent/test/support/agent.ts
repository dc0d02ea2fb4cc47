import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Nginx } from '../../src/apply/nginx.ts';
import { defaultNginxUser } from '../../src/apply/nginx-user.ts';
import type { AgentOptions } from '../../src/options.ts';
import { agentPaths } from '../../src/paths.ts';
import { NGINX_BINARY } from './edge.ts';
import { freePort } from './ports.ts';

export const INSTALL_TOKEN = 'install-token-0123456789';

/** The nginx an agent with this data directory runs (it keeps serving when the agent stops): to stop it after a test. */
export function agentNginx(dataDir: string): Nginx {
  const paths = agentPaths(dataDir);
  return new Nginx({ binary: NGINX_BINARY, prefix: paths.nginxDir, errorLog: paths.errorLog, pidFile: paths.pidFile });
}

/** Agent options for a test: its own data directory and loopback ports, short intervals. */
export async function testAgentOptions(master: string, overrides: Partial<AgentOptions> = {}): Promise<AgentOptions> {
  return {
    masters: [master],
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

/**
 * The command line of an agent process on loopback with one nginx worker, as tests and benches run
 * it. `fast` shortens the long poll and the metrics interval to keep tests quick.
 */
export function agentCommandLine(options: {
  master: string;
  token: string;
  dataDir: string;
  controlPort: number;
  fast?: boolean;
}): string[] {
  return [
    '--master',
    options.master,
    '--token',
    options.token,
    '--data-dir',
    options.dataDir,
    '--control-port',
    String(options.controlPort),
    '--listen-address',
    '127.0.0.1',
    '--workers',
    '1',
    ...(options.fast ? ['--poll-wait', '2', '--metrics-interval', '1'] : []),
    '--nginx',
    NGINX_BINARY,
  ];
}
