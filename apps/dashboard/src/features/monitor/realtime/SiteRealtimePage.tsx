import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Typography from 'antd/es/typography';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../../protection/locales/bundle.ts';
import { FIRST_REALTIME, type SiteScope, useSiteRealtime } from '../api.ts';
import { MONITOR_LOCALES } from '../locales/bundle.ts';
import { type RangeChoice, refreshMs } from '../model/ranges.ts';
import { CHART_KINDS, trafficSeries } from '../model/trafficSeries.ts';
import { RangeChooser } from '../shared/RangeChooser.tsx';
import { ScopePicker } from '../shared/ScopePicker.tsx';
import { TopLists } from './TopLists.tsx';
import { TrafficChart } from './TrafficChart.tsx';
import { TrafficTotals } from './TrafficTotals.tsx';

const UNITS: Record<number, string> = { 60: 'minute', 3600: 'hour', 86400: 'day' };

// The map and its world outlines load after the page's first paint, as chunks of their own.
const CountryMap = lazy(() => import('./CountryMap.tsx'));

/** Spec §2 /site/realtime: bandwidth, requests, status classes, cache hits and blocks of a scope over a range. */
export const Component = () => {
  const { t } = useLocales(MONITOR_LOCALES, PROTECTION_LOCALES);
  const [scope, setScope] = useState<SiteScope>(FIRST_REALTIME.scope);
  const [range, setRange] = useState<RangeChoice>(FIRST_REALTIME.range);
  const realtime = useSiteRealtime(scope, range);
  const series = useMemo(() => realtime.data && trafficSeries(realtime.data), [realtime.data]);
  const refresh = refreshMs(range);
  const unit = realtime.data && UNITS[realtime.data.interval];
  return (
    <section data-testid="site-realtime-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card size="small">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          <ScopePicker scope={scope} onChange={setScope} />
          <RangeChooser range={range} onChange={setRange} />
          <Button icon={<ReloadOutlined />} loading={realtime.isFetching} onClick={() => void realtime.refetch()}>
            {t('monitor.refresh')}
          </Button>
          <Typography.Text type="secondary">
            {unit && t('monitor.interval', { interval: t(`monitor.unit.${unit}`) })}
            {refresh && ` · ${t('monitor.autoRefresh', { seconds: refresh / 1000 })}`}
          </Typography.Text>
        </div>
      </Card>
      {realtime.data && <TrafficTotals totals={realtime.data.totals} />}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(460px, 1fr))', gap: 16 }}>
        {series &&
          CHART_KINDS.map((kind) => (
            <Card key={kind} size="small" title={t(`monitor.realtime.${kind}`)}>
              <TrafficChart kind={kind} series={series} />
            </Card>
          ))}
      </div>
      <TopLists scope={scope} range={range} />
      <Suspense fallback={null}>
        <CountryMap scope={scope} range={range} />
      </Suspense>
    </section>
  );
};
