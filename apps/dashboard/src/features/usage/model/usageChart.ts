import type { TFunction } from 'i18next';
import { formatBitRate, formatBytes } from '../../monitor/model/units.ts';

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

/**
 * The daily traffic chart: bars of bytes sent per day, and when given the day's peak bandwidth on a
 * second axis with the month's 95th percentile as a marked line; legend toggles, zoom and a
 * tooltip in the user's language.
 */
export function dailyTrafficOption(days: readonly DailyTraffic[], t: TFunction, language: string, p95Bps?: number) {
  const withPeak = days.some((day) => day.peak_bps !== undefined);
  const traffic = t('usage.chart.traffic');
  const peak = t('usage.chart.peak');
  const bytes = (value: number) => formatBytes(value, language);
  const bits = (value: number) => formatBitRate(value, language);
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
    yAxis: [
      { type: 'value' as const, min: 0, axisLabel: { formatter: bytes } },
      ...(withPeak ? [{ type: 'value' as const, min: 0, axisLabel: { formatter: bits } }] : []),
    ],
    dataZoom: [{ type: 'inside' as const }, { type: 'slider' as const, height: 20, bottom: 8 }],
    series: [
      {
        type: 'bar' as const,
        name: traffic,
        data: days.map((day) => day.bytes_out),
        itemStyle: { color: '#1677ff' },
      },
      ...(withPeak
        ? [
            {
              type: 'line' as const,
              name: peak,
              yAxisIndex: 1,
              data: days.map((day) => day.peak_bps ?? 0),
              itemStyle: { color: '#fa8c16' },
              ...(p95Bps !== undefined && {
                markLine: {
                  symbol: 'none',
                  lineStyle: { color: '#ff4d4f', type: 'dashed' as const },
                  label: { formatter: `${t('usage.chart.p95')}: ${bits(p95Bps)}` },
                  data: [{ yAxis: p95Bps }],
                },
              }),
            },
          ]
        : []),
    ],
  };
}
