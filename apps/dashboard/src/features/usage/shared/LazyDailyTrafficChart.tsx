import { type ComponentProps, lazy, Suspense } from 'react';
import { DAILY_TRAFFIC_CHART_HEIGHT } from '../model/usageChart.ts';
import type { DailyTrafficChart as Chart } from './DailyTrafficChart.tsx';

// The chart's code is ECharts, about 170 kB gzip.
const DailyTrafficChart = lazy(async () => ({ default: (await import('./DailyTrafficChart.tsx')).DailyTrafficChart }));

/**
 * The daily traffic chart for a page's first screen: the page paints without waiting for ECharts,
 * and a busy box of the chart's height (and test id) keeps what is below it in place until it draws.
 */
export const LazyDailyTrafficChart = (props: ComponentProps<typeof Chart>) => (
  <Suspense fallback={<div data-testid={props.testId} aria-busy style={{ height: DAILY_TRAFFIC_CHART_HEIGHT }} />}>
    <DailyTrafficChart {...props} />
  </Suspense>
);
