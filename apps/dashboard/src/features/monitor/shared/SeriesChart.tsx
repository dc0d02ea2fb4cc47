import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts } from '../realtime/echarts.ts';
import { type SeriesLine, seriesChartOption } from './seriesChartOption.ts';

interface SeriesChartProps {
  title: string;
  testId: string;
  lines: readonly SeriesLine[];
  format: (value: number) => string;
  max?: number;
  area?: boolean;
}

/** One ECharts line chart (streams, nodes), redrawn when the data or the language change; keeps the zoom. */
export const SeriesChart = ({ title, testId, lines, format, max, area }: SeriesChartProps) => {
  const { i18n } = useTranslation();
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
    chart.current?.setOption(seriesChartOption(lines, format, language, { max, area }), { replaceMerge: ['series'] });
  }, [lines, format, language, max, area]);

  return <div ref={element} role="img" aria-label={title} data-testid={testId} style={{ height: 260 }} />;
};
