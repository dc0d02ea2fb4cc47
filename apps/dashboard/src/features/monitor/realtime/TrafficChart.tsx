import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartUnit } from '../../../shared/chart/valueAxis.ts';
import type { ChartKind, Pair, TrafficSeries } from '../model/trafficSeries.ts';
import { SeriesChart } from '../shared/SeriesChart.tsx';

const COLORS: Record<string, string> = {
  bandwidthIn: '#1677ff',
  bandwidthOut: '#52c41a',
  rps: '#1677ff',
  '2xx': '#52c41a',
  '3xx': '#1677ff',
  '4xx': '#faad14',
  '5xx': '#ff4d4f',
  hitRatio: '#13c2c2',
  blockedCount: '#ff4d4f',
};

/** What each chart's values measure. */
const UNITS: Record<ChartKind, ChartUnit> = {
  bandwidth: 'bitRate',
  requests: 'rate',
  status: 'count',
  cache: 'ratio',
  blocked: 'count',
};

/** One line chart of the site realtime page, redrawn when the data or the language change. */
export const TrafficChart = ({ kind, series }: { kind: ChartKind; series: TrafficSeries }) => {
  const { t } = useTranslation();
  const lines = useMemo(
    () =>
      Object.entries(series[kind] as Record<string, Pair[]>).map(([key, data]) => ({
        name: key.endsWith('xx') ? key : t(`monitor.realtime.${key}`),
        data,
        color: COLORS[key],
      })),
    [kind, series, t],
  );
  return (
    <SeriesChart
      title={t(`monitor.realtime.${kind}`)}
      testId={`chart-${kind}`}
      lines={lines}
      unit={UNITS[kind]}
      area={kind === 'bandwidth'}
      {...(kind === 'cache' && { max: 1 })}
    />
  );
};
