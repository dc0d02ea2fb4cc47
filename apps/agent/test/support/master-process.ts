import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { eventually } from './http.ts';

const ROOT = resolve(import.meta.dirname, '../../../..');

export const MASTER_ADMIN_PASSWORD = 'edge-admin-pass-1';

/** A real master from source on a fixed port and data directory, so it can be stopped and started again. */
export class MasterProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Added to the master's environment (a PostgreSQL address, a shared secret key). */
  private readonly env: Record<string, string>;
  private child: ChildProcess | null = null;
  private output = '';

  /** Whether domains reach the edges only once proved (`domain_proof`); see `start`. */
  private readonly domainProof: boolean;

  constructor(
    port: number,
    dataDir: string,
    env: Record<string, string> = {},
    options: { domainProof?: boolean } = {},
  ) {
    this.port = port;
    this.dataDir = dataDir;
    this.url = `http://127.0.0.1:${port}`;
    this.env = env;
    this.domainProof = options.domainProof === true;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** What the master printed last (for a failure's message). */
  get lastOutput(): string {
    return this.output;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        RAMPART_PORT: String(this.port),
        RAMPART_DATA_DIR: this.dataDir,
        RAMPART_ADMIN_PASSWORD: MASTER_ADMIN_PASSWORD,
        RAMPART_LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => this.record(chunk));
    this.child = child;
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`master exited: ${this.output}`);
        const response = await fetch(`${this.url}/v1/common/sysinfo`);
        if (response.status !== 200) throw new Error(`status ${response.status}`);
      },
      30_000,
      100,
    );
    // A new installation requires proof of domain ownership; these tests are about serving sites, so
    // an admin switches it off as an operator would (the proof tests ask for it with `domainProof`).
    if (!this.domainProof) await setDomainProof(this, false);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }

  /** kill -9: the master dies wherever it is (a config change, a log batch); start() brings it back. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * SIGTERM, then true once the process has exited, or false when it is still running after
   * `withinMs` (it is then killed, so the test can go on).
   */
  async terminate(withinMs: number): Promise<boolean> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return true;
    return terminate(child, withinMs);
  }

  private record(chunk: Buffer) {
    this.output = (this.output + chunk.toString()).slice(-8000);
  }
}

/** Calls the master's /v1 API as the given token and unwraps the envelope; throws on a failure code. */
export async function api<T>(
  master: MasterProcess,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${master.url}${path}`, {
    method,
    headers: { 'access-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { code: number | string; msg: string; data: T };
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.msg} - ${envelope.code}`);
  return envelope.data;
}

/**
 * Waits for the first agent that registered with the master (at most `waitMs`) and accepts it with
 * the given settings (ports, IPs).
 */
export async function acceptFirstPendingNode(
  master: MasterProcess,
  admin: string,
  node: { http_port: number; https_port: number; ips?: string[] },
  waitMs = 15_000,
): Promise<void> {
  const pending = await eventually(async () => {
    const { list } = await api<{ list: { id: number }[] }>(master, 'GET', '/v1/pending-nodes', admin);
    if (!list[0]) throw new Error('not registered yet');
    return list[0];
  }, waitMs);
  await api(master, 'POST', '/v1/nodes', admin, { pending_id: pending.id, ...node });
}

const DOMAIN_PROOF = '/v1/configs/global-0-system-domains';

/** Switches the requirement of proof of domain ownership through /v1/configs, where it differs. */
export async function setDomainProof(master: MasterProcess, on: boolean): Promise<void> {
  const admin = await adminToken(master);
  const current = await api<{ domain_proof: boolean }>(master, 'GET', DOMAIN_PROOF, admin);
  if (current.domain_proof !== on) await api(master, 'PUT', DOMAIN_PROOF, admin, { domain_proof: on });
}

export async function adminToken(master: MasterProcess): Promise<string> {
  const response = await fetch(`${master.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: MASTER_ADMIN_PASSWORD }),
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

/** Sends SIGTERM; true once the child has exited, false (and SIGKILL) when it outlives `withinMs`. */
export async function terminate(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  const exited = new Promise<boolean>((done) => child.once('exit', () => done(true)));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((done) => {
    timer = setTimeout(() => done(false), withinMs);
  });
  child.kill('SIGTERM');
  const inTime = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (!inTime) {
    child.kill('SIGKILL');
    await exited;
  }
  return inTime;
}
