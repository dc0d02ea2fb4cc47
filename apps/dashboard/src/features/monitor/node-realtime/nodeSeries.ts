import type { NodeMetricsPoint, NodeRealtime } from '@rampart/contracts';
import type { Pair } from '../model/trafficSeries.ts';

/** What the node charts plot, by the locale key of each line's name. */
export interface NodeSeries {
  bandwidth: { bandwidthIn: Pair[]; bandwidthOut: Pair[] };
  requests: { rps: Pair[] };
  connections: { connections: Pair[] };
  cpu: { cpu: Pair[] };
  memory: { memoryUsed: Pair[]; memoryTotal: Pair[] };
  disk: { diskUsed: Pair[]; diskTotal: Pair[] };
  load: { load1: Pair[]; load5: Pair[]; load15: Pair[] };
}
export type NodeChartKind = keyof NodeSeries;
export const NODE_CHART_KINDS: readonly NodeChartKind[] = [
  'bandwidth',
  'requests',
  'connections',
  'cpu',
  'memory',
  'disk',
  'load',
];

/**
 * Counters as rates per second over each point's interval; gauges as reported, with intervals
 * without reports left out (null), so a node that was down shows a gap rather than a zero.
 */
export function nodeSeries(realtime: Pick<NodeRealtime, 'interval' | 'points'>): NodeSeries {
  const { interval } = realtime;
  const line = (value: (point: NodeMetricsPoint) => number | null): Pair[] =>
    realtime.points.map((point) => [Date.parse(point.time), point.reports === 0 ? null : value(point)]);
  return {
    bandwidth: {
      bandwidthIn: line((point) => (point.bytes_in * 8) / interval),
      bandwidthOut: line((point) => (point.bytes_out * 8) / interval),
    },
    requests: { rps: line((point) => point.requests / interval) },
    connections: { connections: line((point) => point.connections) },
    cpu: { cpu: line((point) => (point.cpu_percent === null ? null : point.cpu_percent / 100)) },
    memory: {
      memoryUsed: line((point) => point.memory_used_bytes),
      memoryTotal: line((point) => point.memory_total_bytes),
    },
    disk: { diskUsed: line((point) => point.disk_used_bytes), diskTotal: line((point) => point.disk_total_bytes) },
    load: {
      load1: line((point) => point.load1),
      load5: line((point) => point.load5),
      load15: line((point) => point.load15),
    },
  };
}
