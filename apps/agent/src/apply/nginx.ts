import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface NginxCommandOptions {
  binary: string;
  /** `-p`: nginx's own prefix, so it never touches a system nginx. */
  prefix: string;
  /** `-e`: where nginx logs before it has read its config. */
  errorLog: string;
  pidFile: string;
}

export interface NginxRun {
  ok: boolean;
  output: string;
}

/** Starts, tests, signals and stops one private nginx; commands are argument arrays, never a shell. */
export class Nginx {
  readonly options: NginxCommandOptions;
  /** Told when processes a dead master left behind were stopped (the operator should hear of it). */
  onOrphansStopped: ((count: number) => void) | null = null;

  constructor(options: NginxCommandOptions) {
    this.options = options;
  }

  /** `nginx -t` on a config file. */
  test(confPath: string): Promise<NginxRun> {
    return this.run(['-t', '-q', ...this.baseArgs(confPath)], 120_000);
  }

  /**
   * Starts the nginx master (it daemonizes); ok once the master process is up. Workers a killed
   * master left behind are stopped first: they hold the ports, so nginx could not bind them.
   */
  async start(confPath: string): Promise<NginxRun> {
    const orphans = await this.stopOrphans();
    const result = await this.run(this.baseArgs(confPath), 60_000);
    if (orphans > 0) this.onOrphansStopped?.(orphans);
    if (!result.ok) return result;
    for (let i = 0; i < 100; i++) {
      if ((await this.pid()) !== null) return result;
      await sleep(20);
    }
    return { ok: false, output: `${result.output}nginx started but wrote no pid file` };
  }

  /** The master pid when nginx is running (the pid file names a live nginx process). */
  async pid(): Promise<number | null> {
    let pid: number;
    try {
      pid = Number.parseInt((await readFile(this.options.pidFile, 'utf8')).trim(), 10);
    } catch {
      return null;
    }
    if (!Number.isSafeInteger(pid) || pid <= 1 || !alive(pid)) return null;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => 'nginx');
    return cmdline.includes('nginx') ? pid : null;
  }

  /** Pids of the master's worker processes (not the cache manager and loader). */
  async workers(): Promise<number[]> {
    const master = await this.pid();
    if (master === null) return [];
    const pids: number[] = [];
    for (const entry of await children(master)) {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes('worker process')) pids.push(Number(entry));
    }
    return pids;
  }

  /**
   * Waits until the workers named have stopped accepting: exited, or retitled "shutting down"
   * (which they do after closing their listening sockets). Until then an old worker can still
   * take a new connection with the old config.
   */
  async waitRetired(workers: number[], timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let busy = false;
      for (const pid of workers) {
        if (!alive(pid)) continue;
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => 'shutting down');
        if (!cmdline.includes('shutting down')) busy = true;
      }
      if (!busy) return true;
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
  }

  /**
   * Processes of this nginx (they hold its error log open) that no live master of ours owns: the
   * workers, cache manager and loader of a master that was killed. They run under our prefix only.
   */
  async orphans(): Promise<number[]> {
    const master = await this.pid();
    const owned = new Set(master === null ? [] : (await children(master)).map(Number));
    const found: number[] = [];
    for (const entry of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === master || owned.has(pid) || pid === process.pid) continue;
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (!cmdline.startsWith('nginx: ') || cmdline.startsWith('nginx: master')) continue;
      if (await this.holdsErrorLog(entry)) found.push(pid);
    }
    return found;
  }

  /**
   * Stops the orphans (QUIT: each closes its listening sockets at once and finishes what it serves),
   * killing those that do not let go of the ports within `timeoutMs`. Answers how many there were.
   */
  async stopOrphans(timeoutMs = 3000): Promise<number> {
    const orphans = await this.orphans();
    if (orphans.length === 0) return 0;
    for (const pid of orphans) signalQuietly(pid, 'SIGQUIT');
    if (!(await this.waitRetired(orphans, timeoutMs))) {
      for (const pid of orphans) signalQuietly(pid, 'SIGKILL');
      const until = Date.now() + 2000;
      while (orphans.some(alive) && Date.now() < until) await sleep(20);
    }
    return orphans.length;
  }

  private async holdsErrorLog(pid: string): Promise<boolean> {
    const errorLog = await realpath(this.options.errorLog).catch(() => this.options.errorLog);
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target === errorLog) return true;
    }
    return false;
  }

  /** Asks the master to re-read the live config (it keeps the old one if the new one fails). */
  reload(): Promise<boolean> {
    return this.signal('SIGHUP');
  }

  /** Asks nginx to reopen its log files (after a rotation). */
  reopenLogs(): Promise<boolean> {
    return this.signal('SIGUSR1');
  }

  /** Graceful stop (QUIT), then TERM and KILL if it lingers. */
  async stop(timeoutMs = 10_000): Promise<void> {
    const pid = await this.pid();
    if (pid === null) return;
    const deadline = Date.now() + timeoutMs;
    for (const signal of ['SIGQUIT', 'SIGTERM', 'SIGKILL'] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        return;
      }
      const until = signal === 'SIGKILL' ? Date.now() + 2000 : Math.min(deadline, Date.now() + timeoutMs / 2);
      while (Date.now() < until) {
        if (!alive(pid)) return;
        await sleep(25);
      }
    }
  }

  private async signal(signal: NodeJS.Signals): Promise<boolean> {
    const pid = await this.pid();
    if (pid === null) return false;
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  private baseArgs(confPath: string): string[] {
    return ['-p', `${this.options.prefix}/`, '-c', confPath, '-e', this.options.errorLog];
  }

  private run(args: string[], timeout: number): Promise<NginxRun> {
    return new Promise((resolve) => {
      const child = spawn(this.options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, timeout });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}` }));
      child.on('close', (code) => resolve({ ok: code === 0, output }));
      // The daemonized master could hold the pipes open; the exit code is what counts.
      child.on('exit', (code) => {
        setTimeout(() => resolve({ ok: code === 0, output }), 500).unref();
      });
    });
  }
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/**
 * Whether a process runs. A daemonized nginx that exited stays a zombie until init reaps it, and
 * signal 0 still reaches a zombie, so its state in /proc decides.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/**
 * Pids of a process's children: the kernel's list of the master's (one read on a loaded node, where
 * every reload used to read two files of each process on it), else every process's parent.
 */
async function children(parent: number): Promise<string[]> {
  const listed = await readFile(`/proc/${parent}/task/${parent}/children`, 'utf8').catch(() => null);
  if (listed !== null) return listed.split(' ').filter((entry) => /^\d+$/.test(entry));
  const found: string[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) found.push(entry);
  }
  return found;
}
