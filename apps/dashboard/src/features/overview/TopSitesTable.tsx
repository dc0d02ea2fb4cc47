import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import type { TopSite } from './api.ts';

/** Today's sites with the most traffic out. */
export const TopSitesTable = ({ sites }: { sites: TopSite[] }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <Table<TopSite>
      rowKey="site_id"
      size="small"
      data-testid="overview-top-sites"
      title={() => t('overview.admin.topSites')}
      pagination={false}
      dataSource={sites}
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
  );
};
