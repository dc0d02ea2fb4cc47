import { MONITOR_LIMITS } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { type RangeChoice, withinRawLog } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import { type NodeTopEntry, useNodeTop } from './api.ts';

/** The ten sites with the most traffic on the node (or every node) in the range. */
export const NodeTopSites = ({ nodeId, range }: { nodeId: number | undefined; range: RangeChoice }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const answerable = withinRawLog(range, Date.now());
  const top = useNodeTop(nodeId, range, answerable);
  const bytes = (value: number) => formatBytes(value, language);
  return (
    <Card size="small" title={t('monitorNode.top.title')} data-testid="node-top-sites">
      {answerable ? (
        <Table<NodeTopEntry>
          rowKey="site_id"
          size="small"
          pagination={false}
          loading={top.isFetching}
          dataSource={top.data?.list ?? []}
          columns={[
            {
              key: 'site',
              title: t('monitorNode.top.site'),
              ellipsis: true,
              render: (_, entry) =>
                entry.site_id === 0 ? (
                  <Typography.Text type="secondary">{t('monitorNode.top.noSite')}</Typography.Text>
                ) : (
                  entry.site_name || `#${entry.site_id}`
                ),
            },
            {
              key: 'requests',
              dataIndex: 'requests',
              title: t('monitorNode.top.requests'),
              width: 120,
              render: (value: number) => formatNumber(value, language),
            },
            { key: 'bytes_in', dataIndex: 'bytes_in', title: t('monitorNode.top.bytesIn'), width: 120, render: bytes },
            {
              key: 'bytes_out',
              dataIndex: 'bytes_out',
              title: t('monitorNode.top.bytesOut'),
              width: 120,
              render: bytes,
            },
          ]}
        />
      ) : (
        <Alert type="info" showIcon title={t('monitor.top.rawLimit', { days: MONITOR_LIMITS.rawLogDays })} />
      )}
    </Card>
  );
};
