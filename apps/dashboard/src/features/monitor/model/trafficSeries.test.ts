import type { TrafficPoint } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { trafficSeries } from './trafficSeries.ts';

const point = (time: string, fields: Partial<TrafficPoint>): TrafficPoint => ({
  time,
  requests: 0,
  bytes_in: 0,
  bytes_out: 0,
  status_2xx: 0,
  status_3xx: 0,
  status_4xx: 0,
  status_5xx: 0,
  cache_hits: 0,
  blocked: 0,
  ...fields,
});

describe('traffic series', () => {
  it('turns counts per interval into rates per second, and the hit ratio where there were requests', () => {
    const series = trafficSeries({
      interval: 60,
      points: [
        point('2026-11-25T10:00:00.000Z', {
          requests: 120,
          bytes_in: 600,
          bytes_out: 7500,
          cache_hits: 30,
          status_4xx: 2,
        }),
        point('2026-11-25T10:01:00.000Z', {}),
      ],
    });
    const at = Date.parse('2026-11-25T10:00:00.000Z');
    expect(series.bandwidth.bandwidthIn[0]).toEqual([at, 80]);
    expect(series.bandwidth.bandwidthOut[0]).toEqual([at, 1000]);
    expect(series.requests.rps).toEqual([
      [at, 2],
      [at + 60_000, 0],
    ]);
    expect(series.cache.hitRatio).toEqual([
      [at, 0.25],
      [at + 60_000, null],
    ]);
    expect(series.status['4xx'][0]).toEqual([at, 2]);
  });
});
