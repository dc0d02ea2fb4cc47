import type { StreamRealtime, StreamTrafficPoint } from '@rampart/contracts';
import type { Pair } from '../model/trafficSeries.ts';

/** What the stream charts plot, by the locale key of each line's name. */
export interface StreamSeries {
  bandwidth: { bandwidthIn: Pair[]; bandwidthOut: Pair[] };
  connections: { connections: Pair[]; failed: Pair[] };
  duration: { meanDuration: Pair[] };
}

/** Bandwidth in bits per second over each interval; connections counted per interval; the mean session in ms. */
export function streamSeries(realtime: Pick<StreamRealtime, 'interval' | 'points'>): StreamSeries {
  const { interval } = realtime;
  const line = (value: (point: StreamTrafficPoint) => number | null): Pair[] =>
    realtime.points.map((point) => [Date.parse(point.time), value(point)]);
  return {
    bandwidth: {
      bandwidthIn: line((point) => (point.bytes_in * 8) / interval),
      bandwidthOut: line((point) => (point.bytes_out * 8) / interval),
    },
    connections: { connections: line((point) => point.connections), failed: line((point) => point.failed) },
    duration: {
      meanDuration: line((point) => (point.connections === 0 ? null : point.session_ms / point.connections)),
    },
  };
}
