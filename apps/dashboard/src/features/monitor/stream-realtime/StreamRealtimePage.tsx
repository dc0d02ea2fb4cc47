import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import type { StreamTrafficCounts } from '@rampart/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Statistic from 'antd/es/statistic';
import Typography from 'antd/es/typography';
import { useMemo, useState } from 'react';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { MONITOR_LOCALES } from '../locales/bundle.ts';
import { type RangeChoice, refreshMs } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import { RangeChooser } from '../shared/RangeChooser.tsx';
import { SeriesChart } from '../shared/SeriesChart.tsx';
import { type StreamScope, useStreamRealtime } from './api.ts';
import { MONITOR_STREAM_LOCALES } from './locales/bundle.ts';
import { StreamLogCard } from './StreamLogCard.tsx';
import { StreamScopePicker } from './StreamScopePicker.tsx';
import { StreamTopLists } from './StreamTopLists.tsx';
import { streamSeries } from './streamSeries.ts';

const UNITS: Record<number, string> = { 60: 'minute', 3600: 'hour', 86400: 'day' };
const COLORS: Record<string, string> = {
  bandwidthIn: '#1677ff',
  bandwidthOut: '#52c41a',
  connections: '#1677ff',
  failed: '#ff4d4f',
  meanDuration: '#13c2c2',
};

const StreamTotals = ({ totals }: { totals: StreamTrafficCounts }) => {
  const { t, i18n } = useLocales(MONITOR_STREAM_LOCALES);
  const language = i18n.language;
  const figures = [
    ['connections', formatNumber(totals.connections, language)],
    ['failed', formatNumber(totals.failed, language)],
    ['bytesIn', formatBytes(totals.bytes_in, language)],
    ['bytesOut', formatBytes(totals.bytes_out, language)],
  ] as const;
  return (
    <Card size="small" title={t('monitorStream.totals.title')} data-testid="stream-totals">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 48 }}>
        {figures.map(([key, value]) => (
          <Statistic key={key} title={t(`monitorStream.totals.${key}`)} value={value} />
        ))}
      </div>
    </Card>
  );
};

/** Spec §2 /stream/realtime: bandwidth in and out and connections of one stream, a stream group or every stream. */
export const Component = () => {
  const { t } = useLocales(MONITOR_LOCALES, MONITOR_STREAM_LOCALES);
  const [scope, setScope] = useState<StreamScope>({});
  const [range, setRange] = useState<RangeChoice>({ preset: '1h' });
  const realtime = useStreamRealtime(scope, range);
  const series = useMemo(() => realtime.data && streamSeries(realtime.data), [realtime.data]);
  const refresh = refreshMs(range);
  const unit = realtime.data && UNITS[realtime.data.interval];
  const lines = useMemo(() => {
    if (!series) return undefined;
    const named = (group: Record<string, [number, number | null][]>) =>
      Object.entries(group).map(([key, data]) => ({
        name: t(key === 'connections' ? 'monitorStream.charts.connections_line' : `monitorStream.charts.${key}`),
        data,
        color: COLORS[key],
      }));
    return {
      bandwidth: named(series.bandwidth),
      connections: named(series.connections),
      duration: named(series.duration),
    };
  }, [series, t]);
  return (
    <section data-testid="stream-realtime-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card size="small">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          <StreamScopePicker scope={scope} onChange={setScope} />
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
      {realtime.data && <StreamTotals totals={realtime.data.totals} />}
      {lines && (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(460px, 1fr))', gap: 16 }}>
          <Card size="small" title={t('monitorStream.charts.bandwidth')}>
            <SeriesChart
              title={t('monitorStream.charts.bandwidth')}
              testId="chart-stream-bandwidth"
              lines={lines.bandwidth}
              unit="bitRate"
              area
            />
          </Card>
          <Card size="small" title={t('monitorStream.charts.connections')}>
            <SeriesChart
              title={t('monitorStream.charts.connections')}
              testId="chart-stream-connections"
              lines={lines.connections}
              unit="count"
            />
          </Card>
          <Card size="small" title={t('monitorStream.charts.duration')}>
            <SeriesChart
              title={t('monitorStream.charts.duration')}
              testId="chart-stream-duration"
              lines={lines.duration}
              unit="ms"
            />
          </Card>
        </div>
      )}
      <StreamTopLists scope={scope} range={range} />
      <StreamLogCard scope={scope} range={range} />
    </section>
  );
};
