import type { TrafficCounts } from '@rampart/contracts';
import Card from 'antd/es/card';
import Statistic from 'antd/es/statistic';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber, formatPercent } from '../model/units.ts';

/** The range's sums: requests, bytes each way, the cache hit ratio and blocks. */
export const TrafficTotals = ({ totals }: { totals: TrafficCounts }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const ratio = totals.requests === 0 ? '—' : formatPercent(totals.cache_hits / totals.requests, language);
  const figures = [
    ['totalRequests', formatNumber(totals.requests, language)],
    ['totalIn', formatBytes(totals.bytes_in, language)],
    ['totalOut', formatBytes(totals.bytes_out, language)],
    ['totalHitRatio', ratio],
    ['totalBlocked', formatNumber(totals.blocked, language)],
  ] as const;
  return (
    <Card size="small" title={t('monitor.realtime.totals')} data-testid="traffic-totals">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 48 }}>
        {figures.map(([key, value]) => (
          <Statistic key={key} title={t(`monitor.realtime.${key}`)} value={value} />
        ))}
      </div>
    </Card>
  );
};
