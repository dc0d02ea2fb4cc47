// Simulated agents for the fleet benches (fleet.ts: one master on SQLite; fleet-masters.ts: three
// masters on one PostgreSQL). Each holds a config long poll, acknowledges every new snapshot with a
// status report, and sends a metrics report every 5 s, as the agent does; the bench waits until
// every agent (or some of them) has acknowledged a version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { ConfigAnswer, NodeMetricsBody } from '@rampart/contracts';

export const METRICS_EVERY_MS = 5000;
const TICKS = 100; // clock ticks per second in /proc/PID/stat
const RETRY_MS = 500;
const ACK_LIMIT_MS = 120_000;

/** Moves this process (the fleet) to core 1 where taskset exists, so that it does not take core 0's master. */
export function runFleetOnCore1(): void {
  try {
    execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  } catch {
    // no taskset: the fleet and the master share the cores
  }
}

/** A process's CPU seconds so far and its resident memory in MB (from /proc). */
export function processUsage(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpu: (Number(stat[11]) + Number(stat[12])) / TICKS, rssMb: Number(rss ?? 0) / 1024 };
}

/** Signs in as the admin on the master at `base`; answers the access token. */
export async function signIn(base: string, password: string): Promise<string> {
  const response = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password }),
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

/** Calls the /v1 API of the master at `base` with the token; answers the envelope's data, throws on a failure code. */
export async function adminCall(base: string, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'access-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: { id: number } };
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${answer.msg}`);
  return answer.data;
}

/** One call of the agent API, as the agent's MasterClient takes it. */
export interface AgentRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** A long poll: how long the master may hold it. */
  holdSeconds?: number;
}

/** Sends an agent call to some master: answers the envelope's data, throws on a connection error or a refusal. */
export type AgentCall = (request: AgentRequest) => Promise<unknown>;

/**
 * Every call to the one master at `base`, over node:http with connections kept alive (no limit per
 * origin). Not fetch: with the master's snapshot built once a change, the fleet's 3,000 fetches a
 * change cost this process more CPU than the master spent answering them, on a machine whose other
 * core runs the master, and the figure measured the simulator.
 */
export function callMaster(base: string): AgentCall {
  const agent = new http.Agent({ keepAlive: true });
  const { hostname, port } = new URL(base);
  return (request) =>
    new Promise((resolve, reject) => {
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      const outgoing = http.request(
        {
          agent,
          host: hostname,
          port,
          method: request.method,
          path: request.path,
          headers: {
            'accept-encoding': 'gzip',
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
            ...request.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            try {
              const raw = Buffer.concat(chunks);
              const text = (response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
              const answer = JSON.parse(text) as { code?: unknown; data?: unknown };
              const status = response.statusCode ?? 0;
              if (status < 200 || status > 299 || answer.code !== 0) reject(new Error(`${status} ${text}`));
              else resolve(answer.data);
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}

export interface SimulatedAgent {
  credential: string;
  call: AgentCall;
}

export const benchMetrics = (): NodeMetricsBody => ({
  time: Math.floor(Date.now() / 1000),
  cpu_percent: 12.5,
  memory_used_bytes: 2_000_000_000,
  memory_total_bytes: 8_000_000_000,
  load1: 0.5,
  load5: 0.4,
  load15: 0.3,
  connections: 40,
  bytes_in: 1_000_000,
  bytes_out: 20_000_000,
  requests: 3000,
  nginx_up: true,
  sites: [],
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface AckWaiter {
  version: number;
  among: Set<number>;
  left: number;
  resolve: () => void;
}

export interface SimulatedFleet {
  /** Metrics reports the masters took, and those refused or failed. */
  readonly metricsSent: number;
  readonly metricsFailed: number;
  /**
   * Resolves when every agent of `among` (all by default) has acknowledged `version` or a later one;
   * rejects after `limitMs`, saying how many had not.
   */
  acknowledged(version: number, among?: readonly number[], limitMs?: number): Promise<void>;
  /** How many agents have acknowledged `version` or a later one. */
  acknowledgedBy(version: number): number;
  /** Told of each acknowledgement: the agent's index and the version. */
  onAck(listener: (agent: number, version: number) => void): void;
  /** Ends every loop at its next turn. */
  stop(): void;
  /** Waits for the loops to end, at most `waitMs`. */
  settled(waitMs: number): Promise<void>;
}

export interface FleetOptions {
  /** Spreads the agents' first config polls over this many ms (default: all at once). */
  connectOverMs?: number;
}

/** A failure with its cause (`fetch failed` alone says little). */
const failureText = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = error instanceof Error ? error.message : String(error);
  return cause ? `${text} (${cause.code ?? cause.message})` : text;
};

/**
 * Connects the fleet: each agent's config loop at once (or spread over `connectOverMs`), its
 * metrics reports spread over the first 5 s as agents starting would be.
 */
export function startFleet(agents: readonly SimulatedAgent[], options: FleetOptions = {}): SimulatedFleet {
  const ackedVersion = agents.map(() => -1);
  const waiters = new Set<AckWaiter>();
  const listeners: ((agent: number, version: number) => void)[] = [];
  let running = true;
  let metricsSent = 0;
  let metricsFailed = 0;
  let configFailed = 0;

  const acknowledge = (agent: number, version: number) => {
    const before = ackedVersion[agent] ?? -1;
    ackedVersion[agent] = Math.max(before, version);
    for (const listener of listeners) listener(agent, version);
    for (const waiter of waiters) {
      if (before >= waiter.version || version < waiter.version || !waiter.among.has(agent)) continue;
      waiter.left--;
      if (waiter.left === 0) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  async function configLoop(agent: number, { credential, call }: SimulatedAgent) {
    await pause(((options.connectOverMs ?? 0) * agent) / agents.length);
    let version = 0;
    while (running) {
      try {
        const answer = (await call({
          method: 'GET',
          path: `/agent/v1/config?version=${version}&wait=30`,
          headers: { 'node-token': credential },
          holdSeconds: 30,
        })) as ConfigAnswer;
        if (!answer.changed) continue;
        await call({
          method: 'POST',
          path: '/agent/v1/status',
          headers: { 'node-token': credential },
          body: { applied_version: answer.version, apply_errors: [], last_error: '', dropped_log_lines: 0 },
        });
        // Only an acknowledged version is the agent's: a status that failed is sent again after the next poll.
        version = answer.version;
        acknowledge(agent, version);
      } catch (error) {
        configFailed++;
        if (configFailed === 1 && running) console.error(`first failed config poll: ${failureText(error)}`);
        if (running) await pause(RETRY_MS);
      }
    }
  }

  async function metricsLoop({ credential, call }: SimulatedAgent, offsetMs: number) {
    await pause(offsetMs);
    while (running) {
      const started = Date.now();
      try {
        await call({
          method: 'POST',
          path: '/agent/v1/metrics',
          headers: { 'node-token': credential },
          body: benchMetrics(),
        });
        metricsSent++;
      } catch (error) {
        metricsFailed++;
        if (metricsFailed === 1 && running) console.error(`first refused report: ${failureText(error)}`);
      }
      await pause(Math.max(0, METRICS_EVERY_MS - (Date.now() - started)));
    }
  }

  const loops = agents.flatMap((agent, i) => [
    configLoop(i, agent),
    metricsLoop(agent, (i / agents.length) * METRICS_EVERY_MS),
  ]);

  return {
    get metricsSent() {
      return metricsSent;
    },
    get metricsFailed() {
      return metricsFailed;
    },
    acknowledged(version, among = agents.map((_, i) => i), limitMs = ACK_LIMIT_MS) {
      const set = new Set(among);
      const left = [...set].filter((agent) => (ackedVersion[agent] ?? -1) < version).length;
      if (left === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `${waiter.left} of ${set.size} agents had not acknowledged version ${version} after ${limitMs} ms`,
            ),
          );
        }, limitMs);
        const waiter: AckWaiter = {
          version,
          among: set,
          left,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiters.add(waiter);
      });
    },
    acknowledgedBy(version) {
      return ackedVersion.filter((acked) => acked >= version).length;
    },
    onAck(listener) {
      listeners.push(listener);
    },
    stop() {
      running = false;
    },
    async settled(waitMs) {
      await Promise.race([Promise.allSettled(loops), pause(waitMs)]);
    },
  };
}
