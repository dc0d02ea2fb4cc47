import type { SiteRealtime, TrafficPoint } from '@rampart/contracts';

export type Pair = [number, number | null];

/** What each chart of the realtime page plots: its series, by the locale key of their names. */
export interface TrafficSeries {
  bandwidth: { bandwidthIn: Pair[]; bandwidthOut: Pair[] };
  requests: { rps: Pair[] };
  status: { '2xx': Pair[]; '3xx': Pair[]; '4xx': Pair[]; '5xx': Pair[] };
  cache: { hitRatio: Pair[] };
  blocked: { blockedCount: Pair[] };
}
export type ChartKind = keyof TrafficSeries;
export const CHART_KINDS: readonly ChartKind[] = ['bandwidth', 'requests', 'status', 'cache', 'blocked'];

/** Rates per second over each point's interval; the hit ratio is left out where there were no requests. */
export function trafficSeries(realtime: Pick<SiteRealtime, 'interval' | 'points'>): TrafficSeries {
  const { interval } = realtime;
  const line = (value: (point: TrafficPoint) => number | null): Pair[] =>
    realtime.points.map((point) => [Date.parse(point.time), value(point)]);
  return {
    bandwidth: {
      bandwidthIn: line((point) => (point.bytes_in * 8) / interval),
      bandwidthOut: line((point) => (point.bytes_out * 8) / interval),
    },
    requests: { rps: line((point) => point.requests / interval) },
    status: {
      '2xx': line((point) => point.status_2xx),
      '3xx': line((point) => point.status_3xx),
      '4xx': line((point) => point.status_4xx),
      '5xx': line((point) => point.status_5xx),
    },
    cache: { hitRatio: line((point) => (point.requests === 0 ? null : point.cache_hits / point.requests)) },
    blocked: { blockedCount: line((point) => point.blocked) },
  };
}
