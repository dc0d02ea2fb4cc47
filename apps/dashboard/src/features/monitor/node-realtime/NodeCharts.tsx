import Card from 'antd/es/card';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import type { Pair } from '../model/trafficSeries.ts';
import { formatBitRate, formatBytes, formatNumber, formatPercent } from '../model/units.ts';
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

const formatOf = (kind: NodeChartKind, language: string) => (value: number) => {
  if (kind === 'bandwidth') return formatBitRate(value, language);
  if (kind === 'cpu') return formatPercent(value, language);
  if (kind === 'memory' || kind === 'disk') return formatBytes(value, language);
  return formatNumber(value, language);
};

/** The seven node charts: bandwidth, requests, connections, CPU, memory, disk and load. */
export const NodeCharts = ({ series, t, language }: { series: NodeSeries; t: TFunction; language: string }) => {
  const charts = useMemo(
    () =>
      NODE_CHART_KINDS.map((kind) => ({
        kind,
        format: formatOf(kind, language),
        lines: Object.entries(series[kind] as Record<string, Pair[]>).map(([key, data]) => ({
          name: t(`monitorNode.charts.${LINE_KEYS[key] ?? key}`),
          data,
          color: COLORS[key],
        })),
      })),
    [series, t, language],
  );
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(460px, 1fr))', gap: 16 }}>
      {charts.map(({ kind, format, lines }) => (
        <Card key={kind} size="small" title={t(`monitorNode.charts.${kind}`)}>
          <SeriesChart
            title={t(`monitorNode.charts.${kind}`)}
            testId={`chart-node-${kind}`}
            lines={lines}
            format={format}
            area={kind === 'bandwidth'}
            {...(kind === 'cpu' && { max: 1 })}
          />
        </Card>
      ))}
    </div>
  );
};
