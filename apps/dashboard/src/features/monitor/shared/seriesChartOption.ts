import { type ChartUnit, unitFormat, valueAxis } from '../../../shared/chart/valueAxis.ts';
import type { Pair } from '../model/trafficSeries.ts';

export interface SeriesLine {
  /** Shown in the legend and the tooltip (already translated). */
  name: string;
  data: Pair[];
  color?: string;
}

interface TooltipItem {
  marker?: string;
  seriesName?: string;
  value?: unknown;
}

/** A value with no value either side: a line cannot show it, a symbol must. */
export const hasIsolatedPoint = (data: readonly Pair[]): boolean =>
  data.some(
    ([, value], index) =>
      value !== null && (data[index - 1]?.[1] ?? null) === null && (data[index + 1]?.[1] ?? null) === null,
  );

// The tooltip is HTML: even our own labels go in as text.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A line chart's ECharts option (sites, streams, nodes): a time axis in the browser's time zone, a
 * value axis in the unit, a legend that toggles lines, zoom by wheel and slider, and a tooltip in
 * the user's language.
 */
export function seriesChartOption(
  lines: readonly SeriesLine[],
  unit: ChartUnit,
  language: string,
  options: { max?: number; area?: boolean } = {},
) {
  const format = unitFormat(unit, language);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
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
    yAxis: valueAxis(
      unit,
      language,
      lines.map((line) => line.data),
      options.max === undefined ? {} : { max: options.max },
    ),
    dataZoom: [{ type: 'inside' as const }, { type: 'slider' as const, height: 20, bottom: 8 }],
    series: lines.map((line) => ({
      type: 'line' as const,
      name: line.name,
      data: line.data,
      // A node that reported once in the range, or one connection between gaps, still shows.
      showSymbol: hasIsolatedPoint(line.data),
      symbolSize: 4,
      connectNulls: false,
      lineStyle: { width: 1.5 },
      ...(line.color && { itemStyle: { color: line.color } }),
      ...(options.area && { areaStyle: { opacity: 0.08 } }),
    })),
  };
}
