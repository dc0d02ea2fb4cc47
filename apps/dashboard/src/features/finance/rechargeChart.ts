import type { TFunction } from 'i18next';
import { valueAxis } from '../../shared/chart/valueAxis.ts';
import { formatMoney } from './money.ts';
import { orderLabel } from './orderText.ts';
import type { RechargeStats } from './rechargeStats.ts';

const CHANNEL_COLOR: Record<string, string> = {
  wxpay: '#52c41a',
  alipay: '#1677ff',
  admin: '#faad14',
  balance: '#8c8c8c',
};

/** Nothing was recharged in the range. */
export const isRechargeChartEmpty = (stats: RechargeStats): boolean => stats.total === 0;

/**
 * One stacked bar per UTC day, a segment per channel, amounts in money on the axis and the tooltip.
 * A range without recharges still draws its days and a zero axis.
 */
export const rechargeChartOption = (stats: RechargeStats, t: TFunction, language: string) => {
  const days = stats.days.map((day) => day.day);
  const series = stats.channels.map((channel) => ({
    type: 'bar' as const,
    stack: 'recharges',
    name: orderLabel(t, 'channel', channel),
    itemStyle: CHANNEL_COLOR[channel] ? { color: CHANNEL_COLOR[channel] } : {},
    // Money units, so that the axis reads like the table.
    data: stats.days.map((day) => (day.byChannel[channel] ?? 0) / 100),
  }));
  return {
    animation: false,
    grid: { left: 72, right: 24, top: 40, bottom: 40 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' as const, valueFormatter: (value: unknown) => formatMoney(Number(value ?? 0) * 100) },
    xAxis: { type: 'category' as const, data: days },
    yAxis: valueAxis(
      'money',
      language,
      series.map((line) => line.data),
    ),
    // An axis shows only beside a series: without channels, an empty one keeps the axes.
    series: series.length > 0 ? series : [{ type: 'bar' as const, data: days.map(() => 0), silent: true }],
  };
};
