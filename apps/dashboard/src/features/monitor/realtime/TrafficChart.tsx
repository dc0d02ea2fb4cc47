import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartKind, TrafficSeries } from '../model/trafficSeries.ts';
import { chartOption } from './chartOption.ts';
import { echarts } from './echarts.ts';

/** One ECharts line chart of the realtime page, redrawn when the data or the language change. */
export const TrafficChart = ({ kind, series }: { kind: ChartKind; series: TrafficSeries }) => {
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
    // Keeps the zoom a user chose while new points arrive.
    chart.current?.setOption(chartOption(kind, series, t, language), { replaceMerge: ['series'] });
  }, [kind, series, t, language]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={t(`monitor.realtime.${kind}`)}
      data-testid={`chart-${kind}`}
      style={{ height: 260 }}
    />
  );
};
