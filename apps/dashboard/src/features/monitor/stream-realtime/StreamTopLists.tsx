import { MONITOR_LIMITS, STREAM_TOP_DIMENSIONS, type StreamTopDimension } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RangeChoice, withinRawLog } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import { type StreamScope, type StreamTopEntry, useStreamTop } from './api.ts';

/** The top ten client addresses or listen ports of the range, in tabs (one query per shown tab). */
export const StreamTopLists = ({ scope, range }: { scope: StreamScope; range: RangeChoice }) => {
  const { t, i18n } = useTranslation();
  const [by, setBy] = useState<StreamTopDimension>('ip');
  const answerable = withinRawLog(range, Date.now());
  const top = useStreamTop(scope, range, by, answerable);
  const language = i18n.language;
  const bytes = (value: number) => formatBytes(value, language);
  return (
    <Card size="small" title={t('monitor.top.title', { count: 10 })} data-testid="stream-top-lists">
      <Tabs
        activeKey={by}
        onChange={(key) => setBy(key as StreamTopDimension)}
        items={STREAM_TOP_DIMENSIONS.map((key) => ({ key, label: t(`monitorStream.top.${key}`) }))}
      />
      {answerable ? (
        <Table<StreamTopEntry>
          rowKey="key"
          size="small"
          pagination={false}
          loading={top.isFetching}
          dataSource={top.data?.by === by ? top.data.list : []}
          columns={[
            // Values come from connections: React shows them as text.
            { key: 'key', dataIndex: 'key', title: t('monitorStream.top.key'), ellipsis: true },
            {
              key: 'connections',
              dataIndex: 'connections',
              title: t('monitorStream.top.connections'),
              width: 140,
              render: (value: number) => formatNumber(value, language),
            },
            {
              key: 'bytes_in',
              dataIndex: 'bytes_in',
              title: t('monitorStream.top.bytesIn'),
              width: 140,
              render: bytes,
            },
            {
              key: 'bytes_out',
              dataIndex: 'bytes_out',
              title: t('monitorStream.top.bytesOut'),
              width: 140,
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
