import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../shared/chart/EChart.tsx';
import {
  DAILY_TRAFFIC_CHART_HEIGHT,
  type DailyTraffic,
  dailyTrafficOption,
  isDailyTrafficEmpty,
} from '../model/usageChart.ts';
import './echarts.ts';

interface DailyTrafficChartProps {
  days: readonly DailyTraffic[];
  p95Bps?: number;
  label: string;
  testId: string;
}

/** One chart of traffic per day, redrawn when the data or the language change. */
export const DailyTrafficChart = ({ days, p95Bps, label, testId }: DailyTrafficChartProps) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const option = useMemo(() => dailyTrafficOption(days, t, language, p95Bps), [days, t, language, p95Bps]);
  return (
    <EChart
      option={option}
      label={label}
      testId={testId}
      height={DAILY_TRAFFIC_CHART_HEIGHT}
      empty={isDailyTrafficEmpty(days)}
    />
  );
};
