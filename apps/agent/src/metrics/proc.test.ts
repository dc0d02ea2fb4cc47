import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cpuPercent,
  diskUsage,
  parseActiveConnections,
  parseCpuTimes,
  parseLoad,
  parseLoad1,
  parseMemory,
} from './proc.ts';

describe('/proc parsing', () => {
  it('computes CPU use from two /proc/stat readings', () => {
    const before = parseCpuTimes('cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n');
    const after = parseCpuTimes('cpu  200 0 200 1400 200 0 0 0 0 0\n');
    expect(before).toEqual({ idle: 800, total: 1000 });
    expect(cpuPercent(before, after)).toBe(20);
    expect(cpuPercent(null, after)).toBe(0);
    expect(cpuPercent(after, after)).toBe(0);
    expect(parseCpuTimes('nonsense')).toBeNull();
  });

  it('reads memory in bytes (used = total − available)', () => {
    const meminfo = 'MemTotal:        2048 kB\nMemFree:          512 kB\nMemAvailable:    1024 kB\n';
    expect(parseMemory(meminfo)).toEqual({ used: 1024 * 1024, total: 2048 * 1024 });
    expect(parseMemory('MemTotal: 100 kB\nMemFree: 40 kB\n')).toEqual({ used: 60 * 1024, total: 100 * 1024 });
  });

  it('reads load and stub_status connections', () => {
    expect(parseLoad1('0.52 0.58 0.59 1/467 12345\n')).toBe(0.52);
    expect(parseLoad1('')).toBe(0);
    expect(parseActiveConnections('Active connections: 7 \nserver accepts handled requests\n 1 1 1\n')).toBe(7);
    expect(parseActiveConnections('')).toBe(0);
  });

  it('reads the 1, 5 and 15 minute load averages', () => {
    expect(parseLoad('0.52 0.58 0.59 1/467 12345\n')).toEqual({ load1: 0.52, load5: 0.58, load15: 0.59 });
    expect(parseLoad('')).toEqual({ load1: 0, load5: 0, load15: 0 });
  });

  it('reads the disk use of the file system holding a directory, and null for one that does not exist', async () => {
    const disk = await diskUsage(tmpdir());
    expect(disk?.total).toBeGreaterThan(0);
    expect(disk?.used).toBeGreaterThan(0);
    expect(disk?.used).toBeLessThanOrEqual(disk?.total ?? 0);
    expect(await diskUsage(join(tmpdir(), 'no-such-directory', String(process.pid)))).toBeNull();
  });
});
