import Card from 'antd/es/card';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import type { ChartUnit } from '../../../shared/chart/valueAxis.ts';
import type { Pair } from '../model/trafficSeries.ts';
import { SeriesChart } from '../shared/SeriesChart.tsx';
import { NODE_CHART_KINDS, type NodeChartKind, type NodeSeries } from './nodeSeries.ts';

const COLORS: Record<string, string> = {
  bandwidthIn: '#1677ff',
  bandwidthOut: '#52c41a',
  rps: '#1677ff',
  connections: '#722ed1',
  cpu: '#fa8c16',
  memoryUsed: '#1677ff',
  memoryTotal: '#bfbfbf',
  diskUsed: '#13c2c2',
  diskTotal: '#bfbfbf',
  load1: '#ff4d4f',
  load5: '#fa8c16',
  load15: '#fadb14',
};

// Line names that are also chart names get their own key.
const LINE_KEYS: Record<string, string> = { connections: 'connections_line', cpu: 'cpu_line' };

/** What each chart's values measure; the load average and requests per second have fractions. */
const unitOf = (kind: NodeChartKind): ChartUnit => {
  if (kind === 'bandwidth') return 'bitRate';
  if (kind === 'cpu') return 'ratio';
  if (kind === 'memory' || kind === 'disk') return 'bytes';
  if (kind === 'connections') return 'count';
  return 'rate';
};

/** The seven node charts: bandwidth, requests, connections, CPU, memory, disk and load. */
export const NodeCharts = ({ series, t }: { series: NodeSeries; t: TFunction }) => {
  const charts = useMemo(
    () =>
      NODE_CHART_KINDS.map((kind) => ({
        kind,
        unit: unitOf(kind),
        lines: Object.entries(series[kind] as Record<string, Pair[]>).map(([key, data]) => ({
          name: t(`monitorNode.charts.${LINE_KEYS[key] ?? key}`),
          data,
          color: COLORS[key],
        })),
      })),
    [series, t],
  );
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(460px, 1fr))', gap: 16 }}>
      {charts.map(({ kind, unit, lines }) => (
        <Card key={kind} size="small" title={t(`monitorNode.charts.${kind}`)}>
          <SeriesChart
            title={t(`monitorNode.charts.${kind}`)}
            testId={`chart-node-${kind}`}
            lines={lines}
            unit={unit}
            area={kind === 'bandwidth'}
            {...(kind === 'cpu' && { max: 1 })}
          />
        </Card>
      ))}
    </div>
  );
};
