import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type DailyTraffic, dailyTrafficOption } from '../model/usageChart.ts';
import { echarts } from './echarts.ts';

interface DailyTrafficChartProps {
  days: readonly DailyTraffic[];
  p95Bps?: number;
  label: string;
  testId: string;
}

/** One ECharts chart of traffic per day, redrawn when the data or the language change. */
export const DailyTrafficChart = ({ days, p95Bps, label, testId }: DailyTrafficChartProps) => {
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
    chart.current?.setOption(dailyTrafficOption(days, t, language, p95Bps), { notMerge: true });
  }, [days, p95Bps, t, language]);

  return <div ref={element} role="img" aria-label={label} data-testid={testId} style={{ height: 280 }} />;
};
