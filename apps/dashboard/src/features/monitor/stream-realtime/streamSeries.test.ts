import { describe, expect, it } from 'vitest';
import { streamSeries } from './streamSeries.ts';

describe('streamSeries', () => {
  it('turns bytes into bits per second, keeps connection counts and leaves the mean out where none ended', () => {
    const series = streamSeries({
      interval: 60,
      points: [
        {
          time: '2026-11-20T00:00:00.000Z',
          connections: 3,
          failed: 1,
          bytes_in: 600,
          bytes_out: 7500,
          session_ms: 4500,
        },
        { time: '2026-11-20T00:01:00.000Z', connections: 0, failed: 0, bytes_in: 0, bytes_out: 0, session_ms: 0 },
      ],
    });
    const t0 = Date.parse('2026-11-20T00:00:00Z');
    expect(series.bandwidth.bandwidthIn).toEqual([
      [t0, 80],
      [t0 + 60_000, 0],
    ]);
    expect(series.bandwidth.bandwidthOut[0]).toEqual([t0, 1000]);
    expect(series.connections.connections.map(([, value]) => value)).toEqual([3, 0]);
    expect(series.connections.failed.map(([, value]) => value)).toEqual([1, 0]);
    expect(series.duration.meanDuration.map(([, value]) => value)).toEqual([1500, null]);
  });
});
