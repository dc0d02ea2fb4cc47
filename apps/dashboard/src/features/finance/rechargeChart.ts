import type { TFunction } from 'i18next';
import { formatMoney } from './money.ts';
import { orderLabel } from './orderText.ts';
import type { RechargeStats } from './rechargeStats.ts';

const CHANNEL_COLOR: Record<string, string> = {
  wxpay: '#52c41a',
  alipay: '#1677ff',
  admin: '#faad14',
  balance: '#8c8c8c',
};

/** One stacked bar per UTC day, a segment per channel, amounts in money on the axis and the tooltip. */
export const rechargeChartOption = (stats: RechargeStats, t: TFunction) => ({
  animation: false,
  grid: { left: 72, right: 24, top: 40, bottom: 40 },
  legend: { top: 0 },
  tooltip: { trigger: 'axis' as const, valueFormatter: (value: unknown) => formatMoney(Number(value ?? 0) * 100) },
  xAxis: { type: 'category' as const, data: stats.days.map((day) => day.day) },
  yAxis: { type: 'value' as const, min: 0, axisLabel: { formatter: (value: number) => value.toFixed(2) } },
  series: stats.channels.map((channel) => ({
    type: 'bar' as const,
    stack: 'recharges',
    name: orderLabel(t, 'channel', channel),
    itemStyle: CHANNEL_COLOR[channel] ? { color: CHANNEL_COLOR[channel] } : {},
    // Money units, so that the axis reads like the table.
    data: stats.days.map((day) => (day.byChannel[channel] ?? 0) / 100),
  })),
});
