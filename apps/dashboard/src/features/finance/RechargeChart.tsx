import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts } from './echarts.ts';
import { rechargeChartOption } from './rechargeChart.ts';
import type { RechargeStats } from './rechargeStats.ts';

/** The stacked bars of recharges per day and channel, redrawn when the data or the language change. */
export const RechargeChart = ({ stats }: { stats: RechargeStats }) => {
  const { t, i18n } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const language = i18n.language;

  useEffect(() => {
    if (!element.current) return;
    const instance = echarts.init(element.current, undefined, { locale: language.startsWith('zh') ? 'ZH' : 'EN' });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [language]);

  useEffect(() => {
    chart.current?.setOption(rechargeChartOption(stats, t), { notMerge: true });
  }, [stats, t]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={t('finance.count.chart')}
      data-testid="recharge-chart"
      style={{ height: 320 }}
    />
  );
};
