import type { TFunction } from 'i18next';
import type { ChartKind, Pair, TrafficSeries } from '../model/trafficSeries.ts';
import { formatBitRate, formatNumber, formatPercent } from '../model/units.ts';

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

/** How a value of each chart reads, in the user's language. */
export const valueFormat = (kind: ChartKind, language: string) => (value: number) => {
  if (kind === 'bandwidth') return formatBitRate(value, language);
  if (kind === 'cache') return formatPercent(value, language);
  return formatNumber(value, language);
};

interface TooltipItem {
  marker?: string;
  seriesName?: string;
  value?: unknown;
}

/**
 * One chart's ECharts option: a time axis in the browser's time zone, a legend that toggles series,
 * zoom by wheel and slider, and a tooltip with the time and values in the user's language.
 */
export function chartOption(kind: ChartKind, series: TrafficSeries, t: TFunction, language: string) {
  const format = valueFormat(kind, language);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const lines = Object.entries(series[kind] as Record<string, Pair[]>).map(([key, data]) => ({
    type: 'line' as const,
    name: key.endsWith('xx') ? key : t(`monitor.realtime.${key}`),
    data,
    showSymbol: false,
    connectNulls: false,
    lineStyle: { width: 1.5 },
    itemStyle: { color: COLORS[key] },
    ...(kind === 'bandwidth' && { areaStyle: { opacity: 0.08 } }),
  }));
  return {
    animation: false,
    grid: { left: 72, right: 24, top: 36, bottom: 64 },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis' as const,
      formatter: (items: TooltipItem | TooltipItem[]) => {
        const list = Array.isArray(items) ? items : [items];
        const first = list[0]?.value;
        const time = Array.isArray(first) ? when.format(new Date(Number(first[0]))) : '';
        const rows = list.map((item) => {
          const value = Array.isArray(item.value) ? item.value[1] : null;
          const text = value === null || value === undefined ? '—' : format(Number(value));
          return `${item.marker ?? ''}${escapeHtml(item.seriesName ?? '')}: ${escapeHtml(text)}`;
        });
        return [escapeHtml(time), ...rows].join('<br/>');
      },
    },
    xAxis: { type: 'time' as const },
    yAxis: {
      type: 'value' as const,
      min: 0,
      ...(kind === 'cache' && { max: 1 }),
      axisLabel: { formatter: format },
    },
    dataZoom: [{ type: 'inside' as const }, { type: 'slider' as const, height: 20, bottom: 8 }],
    series: lines,
  };
}

// The tooltip is HTML: even our own labels go in as text.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
