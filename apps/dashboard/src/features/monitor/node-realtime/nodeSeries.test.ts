import type { NodeMetricsPoint } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { nodeSeries } from './nodeSeries.ts';

const point = (time: string, fields: Partial<NodeMetricsPoint>): NodeMetricsPoint => ({
  time,
  reports: 0,
  bytes_in: 0,
  bytes_out: 0,
  requests: 0,
  connections: null,
  cpu_percent: null,
  memory_used_bytes: null,
  memory_total_bytes: null,
  disk_used_bytes: null,
  disk_total_bytes: null,
  load1: null,
  load5: null,
  load15: null,
  ...fields,
});

describe('nodeSeries', () => {
  it('turns counters into rates, CPU into a ratio, and leaves intervals without reports out', () => {
    const series = nodeSeries({
      interval: 60,
      points: [
        point('2026-11-20T00:00:00.000Z', {
          reports: 6,
          bytes_in: 750,
          bytes_out: 7500,
          requests: 120,
          connections: 4,
          cpu_percent: 25,
          disk_used_bytes: 10,
          load5: 0.5,
        }),
        point('2026-11-20T00:01:00.000Z', {}),
      ],
    });
    const values = (pairs: [number, number | null][]) => pairs.map(([, value]) => value);
    expect(values(series.bandwidth.bandwidthIn)).toEqual([100, null]);
    expect(values(series.bandwidth.bandwidthOut)).toEqual([1000, null]);
    expect(values(series.requests.rps)).toEqual([2, null]);
    expect(values(series.connections.connections)).toEqual([4, null]);
    expect(values(series.cpu.cpu)).toEqual([0.25, null]);
    expect(values(series.disk.diskUsed)).toEqual([10, null]);
    // An older agent reports no disk total and no load15: those stay empty.
    expect(values(series.disk.diskTotal)).toEqual([null, null]);
    expect(values(series.load.load5)).toEqual([0.5, null]);
    expect(values(series.load.load15)).toEqual([null, null]);
  });
});
