import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startMailSink } from './mail-sink.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const READY_TIMEOUT_MS = 60_000;

export const ADMIN_PASSWORD = 'e2e-Admin-Pass-1';
const COMPILE_CACHE = join(tmpdir(), 'rampart-e2e-compile-cache');

export interface RunningMaster {
  baseUrl: string;
  adminPassword: string;
  /** The master's data directory (its SQLite files). */
  dataDir: string;
  /** Everything the master printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });

const delay = (ms: number) => new Promise((done) => setTimeout(done, ms));

const waitUntilReady = async (baseUrl: string, child: ChildProcess, output: () => string) => {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`master exited with ${child.exitCode}:\n${output()}`);
    try {
      // Bounded: the port may belong to another process that never answers.
      const response = await fetch(`${baseUrl}/v1/common/sysinfo`, { signal: AbortSignal.timeout(5000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  throw new Error(`master did not answer within ${READY_TIMEOUT_MS} ms:\n${output()}`);
};

/**
 * Switches the requirement of proof of domain ownership off, straight in the master's SQLite before
 * any site exists: through the API it would be an operation-log line that the page checks read.
 */
const switchDomainProofOff = (dataDir: string) => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    database
      .prepare(
        "INSERT INTO configs (scope_name, scope_id, type, name, value, updated_at) VALUES ('global', 0, 'system', 'domains', ?, ?) ON CONFLICT (scope_name, scope_id, type, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      )
      .run(JSON.stringify({ domain_proof: false }), Date.now());
  } finally {
    database.close();
  }
};

/** A master process on `port`, its output kept for failure messages. */
function launch(port: number, dataDir: string, smtpUrl: string | undefined) {
  const child = spawn(NODE, ['apps/master/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      RAMPART_HOST: '127.0.0.1',
      RAMPART_PORT: String(port),
      RAMPART_DATA_DIR: dataDir,
      RAMPART_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...(smtpUrl ? { RAMPART_SMTP_URL: smtpUrl } : {}),
      // Thirty-odd masters start per run from the same sources: Node keeps their compiled code.
      NODE_COMPILE_CACHE: COMPILE_CACHE,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const output = () => log.slice(-8000);
  const kill = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await Promise.race([exited, delay(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  return { child, output, kill };
}

/**
 * Tries at a port: a free port is found by listening on port 0 and closing, and on a busy machine
 * another process can take it before the master listens on it (EADDRINUSE); the master then starts
 * again on another, with the same data directory.
 */
const PORT_ATTEMPTS = 3;

/**
 * Starts a real master from source on a free port with a fresh data directory and a known admin
 * password, sending its mail to an SMTP server on loopback (`mail: false`: no mail server, so the
 * master offers no email codes).
 */
export const startMaster = async ({
  mail = true,
  domainProof = false,
}: {
  mail?: boolean;
  /** Domains reach the edges only once proved (on for a new installation): off unless a spec is about it. */
  domainProof?: boolean;
} = {}): Promise<RunningMaster> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'rampart-e2e-'));
  const sink = mail ? await startMailSink() : null;
  const cleanUp = async () => {
    await sink?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const master = launch(port, dataDir, sink?.url);
    try {
      await waitUntilReady(baseUrl, master.child, master.output);
      if (!domainProof) switchDomainProofOff(dataDir);
    } catch (error) {
      await master.kill();
      if (attempt < PORT_ATTEMPTS && master.output().includes('EADDRINUSE')) continue;
      await cleanUp();
      throw error;
    }
    const stop = async () => {
      await master.kill();
      await cleanUp();
    };
    return { baseUrl, adminPassword: ADMIN_PASSWORD, dataDir, output: master.output, stop };
  }
};
