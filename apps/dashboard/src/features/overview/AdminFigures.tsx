import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import { DailyTrafficChart } from '../usage/shared/DailyTrafficChart.tsx';
import { type TopSite, useAdminOverview } from './api.ts';
import { Figures } from './Figures.tsx';
import { PANEL } from './panel.ts';

/** The admin's home: fleet health, counts, today's traffic, its trend and the top sites. */
export const AdminFigures = () => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { data } = useAdminOverview();
  if (!data) return null;
  const number = (value: number) => formatNumber(value, language);
  return (
    <>
      <Figures
        title={t('overview.admin.fleet')}
        figures={[
          ['nodes-online', t('overview.admin.nodesOnline'), number(data.nodes.online)],
          ['nodes-offline', t('overview.admin.nodesOffline'), number(data.nodes.offline)],
          ['sites', t('overview.figures.sites'), number(data.sites)],
          ['streams', t('overview.figures.streams'), number(data.streams)],
          ['users', t('overview.admin.users'), number(data.users)],
          ['new-users', t('overview.admin.newUsers'), number(data.new_users_today)],
          ['packages-sold', t('overview.admin.packagesSold'), number(data.packages_sold_today)],
          ['orders', t('overview.admin.orders'), number(data.orders_today)],
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
        <DailyTrafficChart days={data.trend} label={t('overview.trend')} testId="overview-trend" />
      </div>
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
            { key: 'requests', dataIndex: 'requests', title: t('overview.figures.requests'), render: number },
          ]}
        />
      </div>
    </>
  );
};
