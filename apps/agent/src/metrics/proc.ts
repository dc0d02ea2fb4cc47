import { readFile, statfs } from 'node:fs/promises';

export interface CpuTimes {
  idle: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat: idle (idle + iowait) and total jiffies. */
export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 4 || values.some((v) => !Number.isFinite(v))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already in user).
  const total = values.slice(0, 8).reduce((sum, v) => sum + v, 0);
  return { idle: (values[3] ?? 0) + (values[4] ?? 0), total };
}

/** Busy share of the CPU between two readings, in percent. */
export function cpuPercent(before: CpuTimes | null, after: CpuTimes | null): number {
  if (!before || !after) return 0;
  const total = after.total - before.total;
  if (total <= 0) return 0;
  const busy = total - (after.idle - before.idle);
  return Math.round(Math.min(100, Math.max(0, (busy / total) * 100)) * 10) / 10;
}

/** Used (total − available) and total memory in bytes from /proc/meminfo. */
export function parseMemory(meminfo: string): { used: number; total: number } {
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(meminfo);
    return match ? Number(match[1]) * 1024 : 0;
  };
  const total = field('MemTotal');
  const available = field('MemAvailable') || field('MemFree');
  return { used: Math.max(0, total - available), total };
}

export function parseLoad1(loadavg: string): number {
  return parseLoad(loadavg).load1;
}

/** The 1, 5 and 15 minute load averages of /proc/loadavg (0 where unreadable). */
export function parseLoad(loadavg: string): { load1: number; load5: number; load15: number } {
  const [load1, load5, load15] = [0, 1, 2].map((index) => {
    const value = Number.parseFloat(loadavg.trim().split(/\s+/)[index] ?? '');
    return Number.isFinite(value) && value >= 0 ? value : 0;
  });
  return { load1: load1 ?? 0, load5: load5 ?? 0, load15: load15 ?? 0 };
}

/** Used and total bytes of the file system holding `path` (used as df counts it: total − free); null where unreadable. */
export async function diskUsage(path: string): Promise<{ used: number; total: number } | null> {
  try {
    const stats = await statfs(path);
    const total = stats.blocks * stats.bsize;
    return { used: Math.max(0, total - stats.bfree * stats.bsize), total };
  } catch {
    return null;
  }
}

/** "Active connections: N" from nginx stub_status. */
export function parseActiveConnections(stubStatus: string): number {
  const match = /Active connections:\s*(\d+)/.exec(stubStatus);
  return match ? Number(match[1]) : 0;
}

export async function readProc(name: 'stat' | 'meminfo' | 'loadavg'): Promise<string> {
  return readFile(`/proc/${name}`, 'utf8').catch(() => '');
}
