import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../shared/chart/EChart.tsx';
import './echarts.ts';
import { isRechargeChartEmpty, rechargeChartOption } from './rechargeChart.ts';
import type { RechargeStats } from './rechargeStats.ts';

/** The stacked bars of recharges per day and channel, redrawn when the data or the language change. */
export const RechargeChart = ({ stats }: { stats: RechargeStats }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const option = useMemo(() => rechargeChartOption(stats, t, language), [stats, t, language]);
  return (
    <EChart
      option={option}
      label={t('finance.count.chart')}
      testId="recharge-chart"
      height={320}
      empty={isRechargeChartEmpty(stats)}
    />
  );
};
