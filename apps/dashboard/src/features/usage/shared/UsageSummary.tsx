import type { Usage } from '@rampart/contracts';
import Card from 'antd/es/card';
import Statistic from 'antd/es/statistic';
import { useTranslation } from 'react-i18next';
import { formatBitRate, formatBytes, formatNumber } from '../../monitor/model/units.ts';
import { DailyTrafficChart } from './DailyTrafficChart.tsx';
// This chart also draws the peak line and the 95th percentile.
import './peakEcharts.ts';

/** A month's figures (traffic, 95th percentile, peak, forecast) and its daily chart. */
export const UsageSummary = ({ usage }: { usage: Usage }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const figures = [
    ['bytesOut', formatBytes(usage.total.bytes_out, language)],
    ['p95', formatBitRate(usage.total.p95_bps, language)],
    ['peak', formatBitRate(usage.total.peak_bps, language)],
    ['forecast', formatBytes(usage.forecast.bytes_out, language)],
    ['requests', formatNumber(usage.total.requests, language)],
  ] as const;
  return (
    <>
      <Card size="small" title={t('usage.figures.title', { month: usage.month })} data-testid="usage-figures">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 48 }}>
          {figures.map(([key, value]) => (
            <Statistic key={key} title={t(`usage.figures.${key}`)} value={value} data-testid={`usage-${key}`} />
          ))}
        </div>
      </Card>
      <Card size="small" title={t('usage.chart.title')}>
        <DailyTrafficChart
          days={usage.days}
          p95Bps={usage.total.p95_bps}
          label={t('usage.chart.title')}
          testId="usage-chart"
        />
      </Card>
    </>
  );
};
