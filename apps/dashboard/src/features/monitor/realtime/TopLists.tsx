import { MONITOR_LIMITS, TOP_DIMENSIONS, type TopDimension } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SiteScope, type TopEntry, useSiteTop } from '../api.ts';
import { countryName } from '../model/countries.ts';
import { type RangeChoice, withinRawLog } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';

/** The top ten values of one field of the access log at a time, in tabs (one query per shown tab). */
export const TopLists = ({ scope, range }: { scope: SiteScope; range: RangeChoice }) => {
  const { t, i18n } = useTranslation();
  const [by, setBy] = useState<TopDimension>('url');
  const answerable = withinRawLog(range, Date.now());
  const top = useSiteTop(scope, range, by, answerable);
  const language = i18n.language;
  return (
    <Card size="small" title={t('monitor.top.title', { count: 10 })} data-testid="top-lists">
      <Tabs
        activeKey={by}
        onChange={(key) => setBy(key as TopDimension)}
        items={TOP_DIMENSIONS.map((key) => ({ key, label: t(`monitor.top.${key}`) }))}
      />
      {answerable ? (
        <Table<TopEntry>
          rowKey="key"
          size="small"
          pagination={false}
          loading={top.isFetching}
          dataSource={top.data?.by === by ? top.data.list : []}
          columns={[
            {
              key: 'key',
              dataIndex: 'key',
              title: t('monitor.top.key'),
              ellipsis: true,
              // Values come from requests: React shows them as text.
              render: (key: string) =>
                key === '' ? (
                  <Typography.Text type="secondary">{t('monitor.top.empty')}</Typography.Text>
                ) : by === 'country' ? (
                  `${countryName(key, language)} (${key})`
                ) : (
                  key
                ),
            },
            {
              key: 'requests',
              dataIndex: 'requests',
              title: t('monitor.top.requests'),
              width: 140,
              render: (value: number) => formatNumber(value, language),
            },
            {
              key: 'bytes_out',
              dataIndex: 'bytes_out',
              title: t('monitor.top.bytesOut'),
              width: 140,
              render: (value: number) => formatBytes(value, language),
            },
          ]}
        />
      ) : (
        <Alert type="info" showIcon title={t('monitor.top.rawLimit', { days: MONITOR_LIMITS.rawLogDays })} />
      )}
    </Card>
  );
};
