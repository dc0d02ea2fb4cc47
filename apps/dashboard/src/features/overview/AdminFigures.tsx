import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import { LazyDailyTrafficChart } from '../usage/shared/LazyDailyTrafficChart.tsx';
import { useAdminOverview } from './api.ts';
import { Figures } from './Figures.tsx';
import { PANEL } from './panel.ts';

// antd's Table (about 60 kB gzip beyond what the console has) loads with the data, after the first paint.
const TopSitesTable = lazy(async () => ({ default: (await import('./TopSitesTable.tsx')).TopSitesTable }));

type Figure = readonly [string, string, string];

/** The figures whose value the master answered: a null one is of an area the admin does not hold. */
const held = (figures: readonly (readonly [string, string, string | null])[]): Figure[] =>
  figures.filter((figure): figure is Figure => figure[2] !== null);

/**
 * The admin's home: fleet health, counts, today's traffic, its trend and the top sites. The master
 * answers null for the figures of areas the admin does not hold (ADMIN_OVERVIEW_ACCESS): their cards,
 * and a panel left with none, are not shown.
 */
export const AdminFigures = () => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { data } = useAdminOverview();
  if (!data) return null;
  const number = (value: number | null) => (value === null ? null : formatNumber(value, language));
  const counts = held([
    ['nodes-online', t('overview.admin.nodesOnline'), number(data.nodes?.online ?? null)],
    ['nodes-offline', t('overview.admin.nodesOffline'), number(data.nodes?.offline ?? null)],
    ['sites', t('overview.figures.sites'), number(data.sites)],
    ['streams', t('overview.figures.streams'), number(data.streams)],
    ['users', t('overview.admin.users'), number(data.users)],
    ['new-users', t('overview.admin.newUsers'), number(data.new_users_today)],
    ['packages-sold', t('overview.admin.packagesSold'), number(data.packages_sold_today)],
    ['orders', t('overview.admin.orders'), number(data.orders_today)],
  ]);
  return (
    <>
      {counts.length > 0 && <Figures title={t('overview.admin.fleet')} figures={counts} />}
      {data.today && (
        <Figures
          title={t('overview.figures.today')}
          figures={[
            ['traffic', t('overview.figures.traffic'), formatBytes(data.today.bytes_out, language)],
            ['requests', t('overview.figures.requests'), formatNumber(data.today.requests, language)],
            ['blocked', t('overview.figures.blocked'), formatNumber(data.today.blocked, language)],
          ]}
        />
      )}
      {data.trend && (
        <div style={PANEL}>
          <LazyDailyTrafficChart days={data.trend} label={t('overview.trend')} testId="overview-trend" />
        </div>
      )}
      {data.top_sites && (
        <Suspense fallback={null}>
          <div style={PANEL}>
            <TopSitesTable sites={data.top_sites} />
          </div>
        </Suspense>
      )}
    </>
  );
};
