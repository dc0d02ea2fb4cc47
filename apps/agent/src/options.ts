import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_CONTROL_PORT, MAX_AGENT_MASTERS } from '@rampart/contracts';
import { defaultNginxUser } from './apply/nginx-user.ts';
import { masterBase, masterListProblem, splitMasterList } from './sync/master-list.ts';

export interface AgentOptions {
  /** The masters the agent starts with, in the order it fails over between them. */
  masters: string[];
  /** Cluster install token; only needed until the node has its own credential. */
  token: string | null;
  dataDir: string;
  controlPort: number;
  /** Address sites and streams listen on; empty for every address. */
  listenAddress: string;
  nginxBinary: string;
  modulesDir: string;
  nginxUser: string | null;
  workerProcesses: number | 'auto';
  spoolMaxBytes: number;
  stopNginxOnExit: boolean;
  pollWaitSeconds: number;
  metricsIntervalMs: number;
  statusIntervalMs: number;
  proveTimeoutMs: number;
  registrationPollMs: number;
  logRotateBytes: number;
  /** Loopback port of the agent's own GET /metrics (Prometheus); off when unset. */
  metricsPort?: number;
}

export const USAGE = `Usage: npm run agent -- --master URL --token TOKEN --data-dir DIR [options]

  --master URL[,URL...]    the Rampart master, e.g. https://cdn.example.com, or several (at most
                           ${MAX_AGENT_MASTERS}, each once): the agent goes on to the next when one stops answering
  --token TOKEN            cluster install token (only until the node is accepted)
  --data-dir DIR           agent state, nginx config, logs, cache and spool
  --control-port PORT      loopback control server of nginx (default ${AGENT_CONTROL_PORT})
  --listen-address ADDR    address sites and streams listen on (default: all)
  --spool-max-mb MB        log spool size while the master is away (default 512)
  --nginx PATH             nginx binary (default $RAMPART_NGINX or /usr/sbin/nginx)
  --nginx-modules DIR      nginx dynamic modules (default /usr/lib/nginx/modules)
  --workers N|auto         nginx worker processes until the first config (the fleet's edge settings replace it)
  --stop-nginx-on-exit     stop nginx when the agent stops (default: nginx keeps serving)
  --metrics-port PORT      serve Prometheus metrics on 127.0.0.1:PORT/metrics (default: off)
`;

export class OptionsError extends Error {
  override name = 'OptionsError';
  /** The user asked for the usage text: not a failure. */
  readonly help: boolean;

  constructor(message: string, help = false) {
    super(message);
    this.help = help;
  }
}

const OPTIONS = {
  master: { type: 'string' },
  token: { type: 'string' },
  'data-dir': { type: 'string' },
  'control-port': { type: 'string' },
  'listen-address': { type: 'string' },
  'spool-max-mb': { type: 'string' },
  nginx: { type: 'string' },
  'nginx-modules': { type: 'string' },
  workers: { type: 'string' },
  'stop-nginx-on-exit': { type: 'boolean' },
  'poll-wait': { type: 'string' },
  'metrics-interval': { type: 'string' },
  'metrics-port': { type: 'string' },
  help: { type: 'boolean' },
} as const;

/**
 * `--name value` as `--name=value` for options that take a value, so a value may start with a dash
 * (an install token can): parseArgs would call `--token -x…` ambiguous and refuse it.
 */
function joinValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at] ?? '';
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    const next = argv[at + 1];
    const takesValue = name in OPTIONS && OPTIONS[name as keyof typeof OPTIONS].type === 'string';
    if (takesValue && next !== undefined && !next.startsWith('--')) {
      joined.push(`${arg}=${next}`);
      at++;
    } else joined.push(arg);
  }
  return joined;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): AgentOptions {
  const { values } = parseArgs({
    args: joinValues(argv),
    strict: true,
    options: OPTIONS,
  });
  if (values.help) throw new OptionsError(USAGE, true);
  const master = values.master ?? env.RAMPART_MASTER;
  const dataDir = values['data-dir'] ?? env.RAMPART_AGENT_DATA_DIR;
  if (!master) throw new OptionsError(`--master is required\n\n${USAGE}`);
  const masters = splitMasterList(master);
  const problem = masterListProblem(masters);
  if (problem) throw new OptionsError(`--master ${problem}`);
  if (!dataDir) throw new OptionsError(`--data-dir is required\n\n${USAGE}`);
  const listenAddress = values['listen-address'] ?? '';
  if (listenAddress !== '' && !/^(?:[0-9.]+|\[[0-9a-fA-F:.]+\])$/.test(listenAddress)) {
    throw new OptionsError('--listen-address must be an IPv4 address or a bracketed IPv6 address');
  }
  const workers = values.workers ?? 'auto';
  const metricsPort = values['metrics-port'] ?? env.RAMPART_AGENT_METRICS_PORT;
  return {
    masters: masters.map(masterBase),
    token: values.token ?? env.RAMPART_INSTALL_TOKEN ?? null,
    // npm runs the workspace script in apps/agent; a relative path means where the user typed it.
    dataDir: resolve(env.INIT_CWD ?? process.cwd(), dataDir),
    controlPort: integer(values['control-port'] ?? String(AGENT_CONTROL_PORT), '--control-port', 1, 65535),
    listenAddress,
    nginxBinary: values.nginx ?? env.RAMPART_NGINX ?? '/usr/sbin/nginx',
    modulesDir: values['nginx-modules'] ?? '/usr/lib/nginx/modules',
    nginxUser: defaultNginxUser(),
    workerProcesses: workers === 'auto' ? 'auto' : integer(workers, '--workers', 1, 1024),
    spoolMaxBytes: integer(values['spool-max-mb'] ?? '512', '--spool-max-mb', 1, 1_000_000) * 1024 * 1024,
    stopNginxOnExit: values['stop-nginx-on-exit'] ?? false,
    pollWaitSeconds: integer(values['poll-wait'] ?? '30', '--poll-wait', 0, 60),
    metricsIntervalMs: integer(values['metrics-interval'] ?? '10', '--metrics-interval', 1, 3600) * 1000,
    statusIntervalMs: 30_000,
    proveTimeoutMs: 10_000,
    registrationPollMs: 2000,
    logRotateBytes: 256 * 1024 * 1024,
    ...(metricsPort && { metricsPort: integer(metricsPort, '--metrics-port', 1, 65535) }),
  };
}

function integer(text: string, name: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new OptionsError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
