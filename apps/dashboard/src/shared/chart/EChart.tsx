import type { EChartsCoreOption } from 'echarts/core';
import * as echarts from 'echarts/core';
import { useEffect, useRef } from 'react';
import { useLocales } from '../i18n/useLocales.ts';
import { CHART_LOCALES } from './locales/bundle.ts';

interface EChartProps {
  /** The chart's option; the feature registers the chart types it uses with `echarts.use`. */
  option: EChartsCoreOption;
  /** The chart's name for screen readers. */
  label: string;
  testId: string;
  height: number;
  /** Nothing to show in the period: the axes stay, and a note says so over them. */
  empty: boolean;
  /** 'series' keeps the zoom a user chose while new points arrive; 'all' draws the chart anew. */
  replace?: 'series' | 'all';
}

interface ChartModel {
  getModel?: () => {
    getComponent: (type: string, index: number) => { axis?: { getViewLabels?: () => { formattedLabel: string }[] } };
  };
}

/**
 * The labels the first value axis shows, as drawn (on a canvas, out of reach of the page's text).
 * ECharts keeps its model private: read defensively, an empty list when it is not there.
 */
const yAxisLabels = (instance: echarts.ECharts): string => {
  const axis = (instance as unknown as ChartModel).getModel?.().getComponent('yAxis', 0)?.axis;
  return (axis?.getViewLabels?.() ?? []).map((label) => label.formattedLabel).join('|');
};

const OVERLAY = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  color: 'rgba(0,0,0,0.45)',
  pointerEvents: 'none',
} as const;

/** One ECharts chart, sized to its box, redrawn when the option or the language change. */
export const EChart = ({ option, label, testId, height, empty, replace = 'all' }: EChartProps) => {
  const { t, i18n } = useLocales(CHART_LOCALES);
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const language = i18n.language;
  // A chart made anew (another language) starts from the latest option.
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    if (!element.current) return;
    const instance = echarts.init(element.current, undefined, { locale: language.startsWith('zh') ? 'ZH' : 'EN' });
    instance.setOption(latest.current);
    chart.current = instance;
    const shown = element.current;
    // Written on the box once drawn, so a check can read the scale a canvas hides.
    const onFinished = () => shown.setAttribute('data-y-labels', yAxisLabels(instance));
    instance.on('finished', onFinished);
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [language]);

  useEffect(() => {
    chart.current?.setOption(option, replace === 'series' ? { replaceMerge: ['series'] } : { notMerge: true });
  }, [option, replace]);

  return (
    <div style={{ position: 'relative' }}>
      <div ref={element} role="img" aria-label={label} data-testid={testId} data-empty={empty} style={{ height }} />
      {empty && (
        <div style={OVERLAY} data-testid={`${testId}-empty`}>
          {t('chart.empty')}
        </div>
      )}
    </div>
  );
};
