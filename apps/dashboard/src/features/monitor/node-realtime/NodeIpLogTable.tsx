import { MONITOR_LIMITS } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCidr } from '../../protection/model/address.ts';
import { AddressSearch } from '../../protection/shared/AddressSearch.tsx';
import { formatTime } from '../../protection/shared/time.ts';
import { type RangeChoice, withinRawLog } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import { type NodeIpLogEntry, useNodeIpLog } from './api.ts';

/** Client addresses the node (or every node) saw in the range, most active first, narrowed by a CIDR. */
export const NodeIpLogTable = ({ nodeId, range }: { nodeId: number | undefined; range: RangeChoice }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [ip, setIp] = useState<string | undefined>();
  const answerable = withinRawLog(range, Date.now());
  const log = useNodeIpLog(nodeId, range, ip, answerable);
  const count = (value: number) => formatNumber(value, language);
  const time = (value: string) => formatTime(value, language);
  return (
    <Card
      size="small"
      title={t('monitorNode.ipLog.title')}
      data-testid="node-ip-log"
      extra={<AddressSearch aria-label={t('monitorNode.ipLog.filter')} accepts={isCidr} onSearch={setIp} />}
    >
      {answerable ? (
        <Table<NodeIpLogEntry>
          rowKey={(entry) => `${entry.node_id}-${entry.client_ip}`}
          size="small"
          pagination={false}
          loading={log.isFetching}
          dataSource={log.data?.list ?? []}
          columns={[
            { key: 'node', dataIndex: 'node_id', title: t('monitorNode.ipLog.node'), width: 80 },
            // Client addresses come from requests: React shows them as text.
            { key: 'ip', dataIndex: 'client_ip', title: t('monitorNode.ipLog.ip'), ellipsis: true },
            {
              key: 'requests',
              dataIndex: 'requests',
              title: t('monitorNode.ipLog.requests'),
              width: 110,
              render: count,
            },
            {
              key: 'connections',
              dataIndex: 'connections',
              title: t('monitorNode.ipLog.connections'),
              width: 140,
              render: count,
            },
            {
              key: 'bytes_out',
              dataIndex: 'bytes_out',
              title: t('monitorNode.ipLog.bytesOut'),
              width: 110,
              render: (value: number) => formatBytes(value, language),
            },
            {
              key: 'first',
              dataIndex: 'first_seen',
              title: t('monitorNode.ipLog.firstSeen'),
              width: 180,
              render: time,
            },
            { key: 'last', dataIndex: 'last_seen', title: t('monitorNode.ipLog.lastSeen'), width: 180, render: time },
          ]}
        />
      ) : (
        <Alert type="info" showIcon title={t('monitor.top.rawLimit', { days: MONITOR_LIMITS.rawLogDays })} />
      )}
    </Card>
  );
};
