import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import { LazyDailyTrafficChart } from '../usage/shared/LazyDailyTrafficChart.tsx';
import { useUserOverview } from './api.ts';
import { Figures } from './Figures.tsx';
import { PANEL } from './panel.ts';

// antd's List (with the pagination it brings) loads with the data, after the first paint.
const ExpiringCerts = lazy(async () => ({ default: (await import('./ExpiringCerts.tsx')).ExpiringCerts }));

/** A user's home: their sites and streams, today's and this month's traffic, its trend and expiring certificates. */
export const UserFigures = () => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { data } = useUserOverview();
  if (!data) return null;
  const number = (value: number) => formatNumber(value, language);
  return (
    <>
      <Figures
        title={t('overview.mine.services')}
        figures={[
          ['sites', t('overview.figures.sites'), number(data.sites)],
          ['streams', t('overview.figures.streams'), number(data.streams)],
          ['certs', t('overview.mine.certs'), number(data.certs)],
          ['certs-expiring', t('overview.mine.certsExpiring'), number(data.certs_expiring)],
          ['month-traffic', t('overview.mine.monthTraffic'), formatBytes(data.month.bytes_out, language)],
        ]}
      />
      <Figures
        title={t('overview.figures.today')}
        figures={[
          ['traffic', t('overview.figures.traffic'), formatBytes(data.today.bytes_out, language)],
          ['requests', t('overview.figures.requests'), number(data.today.requests)],
          ['blocked', t('overview.figures.blocked'), number(data.today.blocked)],
        ]}
      />
      <div style={PANEL}>
        <LazyDailyTrafficChart days={data.trend} label={t('overview.trend')} testId="overview-trend" />
      </div>
      {data.certs_expiring_list.length > 0 && (
        <Suspense fallback={null}>
          <div style={PANEL}>
            <ExpiringCerts certs={data.certs_expiring_list} />
          </div>
        </Suspense>
      )}
    </>
  );
};
