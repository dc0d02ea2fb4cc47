import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import { DailyTrafficChart } from '../usage/shared/DailyTrafficChart.tsx';
import { type TopSite, useAdminOverview } from './api.ts';
import { Figures } from './Figures.tsx';
import { PANEL } from './panel.ts';

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
          <DailyTrafficChart days={data.trend} label={t('overview.trend')} testId="overview-trend" />
        </div>
      )}
      {data.top_sites && (
        <div style={PANEL}>
          <Table<TopSite>
            rowKey="site_id"
            size="small"
            data-testid="overview-top-sites"
            title={() => t('overview.admin.topSites')}
            pagination={false}
            dataSource={data.top_sites}
            columns={[
              {
                key: 'domain',
                dataIndex: 'domain',
                title: t('overview.admin.domain'),
                ellipsis: true,
                render: (domain: string, row) => domain || `#${row.site_id}`,
              },
              {
                key: 'bytes_out',
                dataIndex: 'bytes_out',
                title: t('overview.figures.traffic'),
                render: (value: number) => formatBytes(value, language),
              },
              {
                key: 'requests',
                dataIndex: 'requests',
                title: t('overview.figures.requests'),
                render: (value: number) => formatNumber(value, language),
              },
            ]}
          />
        </div>
      )}
    </>
  );
};
