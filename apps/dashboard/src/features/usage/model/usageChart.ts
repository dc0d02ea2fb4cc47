import type { TFunction } from 'i18next';
import { unitFormat, valueAxis } from '../../../shared/chart/valueAxis.ts';

/** The daily chart's height in pixels (its placeholder while ECharts loads has the same). */
export const DAILY_TRAFFIC_CHART_HEIGHT = 280;

export interface DailyTraffic {
  date: string;
  bytes_out: number;
  /** Bits per second: the day's highest 5-minute sample, when known. */
  peak_bps?: number;
}

interface TooltipItem {
  marker?: string;
  seriesName?: string;
  seriesIndex?: number;
  value?: unknown;
  axisValueLabel?: string;
}

// The tooltip is HTML: every label goes in as text.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Nothing was sent on any day of the period. */
export const isDailyTrafficEmpty = (days: readonly DailyTraffic[]): boolean =>
  days.every((day) => day.bytes_out === 0 && !day.peak_bps);

/**
 * The daily traffic chart: bars of bytes sent per day, and when given the day's peak bandwidth on a
 * second axis with the month's 95th percentile as a marked line; legend toggles, zoom and a
 * tooltip in the user's language.
 */
export function dailyTrafficOption(days: readonly DailyTraffic[], t: TFunction, language: string, p95Bps?: number) {
  const withPeak = days.some((day) => day.peak_bps !== undefined);
  const traffic = t('usage.chart.traffic');
  const peak = t('usage.chart.peak');
  const bytes = unitFormat('bytes', language);
  const bits = unitFormat('bitRate', language);
  const sent = days.map((day) => day.bytes_out);
  const peaks = days.map((day) => day.peak_bps ?? 0);
  return {
    animation: false,
    grid: { left: 80, right: withPeak ? 88 : 24, top: 40, bottom: 64 },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis' as const,
      formatter: (items: TooltipItem | TooltipItem[]) => {
        const list = Array.isArray(items) ? items : [items];
        const rows = list.map((item) => {
          const value = Number(item.value ?? 0);
          const text = item.seriesIndex === 1 ? bits(value) : bytes(value);
          return `${item.marker ?? ''}${escapeHtml(item.seriesName ?? '')}: ${escapeHtml(text)}`;
        });
        return [escapeHtml(list[0]?.axisValueLabel ?? ''), ...rows].join('<br/>');
      },
    },
    xAxis: { type: 'category' as const, data: days.map((day) => day.date) },
    yAxis: [valueAxis('bytes', language, [sent]), ...(withPeak ? [valueAxis('bitRate', language, [peaks])] : [])],
    dataZoom: [{ type: 'inside' as const }, { type: 'slider' as const, height: 20, bottom: 8 }],
    series: [
      {
        type: 'bar' as const,
        name: traffic,
        data: sent,
        itemStyle: { color: '#1677ff' },
      },
      ...(withPeak
        ? [
            {
              type: 'line' as const,
              name: peak,
              yAxisIndex: 1,
              data: peaks,
              itemStyle: { color: '#fa8c16' },
              ...(p95Bps !== undefined && {
                markLine: {
                  symbol: 'none',
                  lineStyle: { color: '#ff4d4f', type: 'dashed' as const },
                  // Inside the plot, above the line's end: beside it the grid's margin would cut it off.
                  label: { formatter: `${t('usage.chart.p95')}: ${bits(p95Bps)}`, position: 'insideEndTop' as const },
                  data: [{ yAxis: p95Bps }],
                },
              }),
            },
          ]
        : []),
    ],
  };
}
