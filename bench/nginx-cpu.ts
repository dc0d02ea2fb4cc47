// The CPU time of processes (nginx workers, the master, the agent), read from /proc: benches report
// it a request beside the rate, because a busy machine disturbs it far less than the rate.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The worker processes of an nginx serving now (not those shutting down after a reload), from its
 * pid file (or the prefix directory holding nginx.pid).
 */
export function workersOf(pidFile: string): number[] {
  const master = readFileSync(pidFile.endsWith('.pid') ? pidFile : join(pidFile, 'nginx.pid'), 'utf8').trim();
  const workers = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((pid) => {
      if (pid === '') return false;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return command.includes('worker process') && !command.includes('shutting down');
    })
    .map(Number);
  if (workers.length === 0) throw new Error(`no worker under nginx ${master}`);
  return workers;
}

/** User and system CPU seconds of processes so far. */
export function cpuSeconds(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);
}

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((path) => existsSync(path));

/**
 * Pins processes (all their threads) to one core, where taskset exists: the nginx under test on
 * core 0, its origin on core 1 with the client (which runs there, bench/support.ts), so that a worker
 * never shares its core with the load it is measured under.
 */
export function pinToCore(pids: readonly number[], core: number): void {
  if (!TASKSET) return;
  for (const pid of pids) execFileSync(TASKSET, ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}
