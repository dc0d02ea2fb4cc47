import type { UserUsage } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { formatBitRate, formatBytes, formatNumber } from '../monitor/model/units.ts';
import { usePackageCatalogue, useUsage, useUserUsageRanking } from './api.ts';
import { USAGE_LOCALES } from './locales/bundle.ts';
import { packagesCarryNoLimits } from './model/banners.ts';
import { monthOf } from './model/months.ts';
import { MonthPicker } from './shared/MonthPicker.tsx';
import { UsageSummary } from './shared/UsageSummary.tsx';

const PAGE_SIZE = 20;

/** Spec §2 /package/monitor (admin): users ranked by the month's usage; a row shows that user's month. */
export const Component = () => {
  const { t, i18n } = useLocales(USAGE_LOCALES);
  const language = i18n.language;
  const [month, setMonth] = useState(() => monthOf(Date.now()));
  const [page, setPage] = useState(1);
  const [userId, setUserId] = useState<number | undefined>();
  const ranking = useUserUsageRanking(month, page, PAGE_SIZE);
  const catalogue = usePackageCatalogue();
  const usage = useUsage({ month, user_id: userId }, userId !== undefined);
  const picked = ranking.data?.list.find((row) => row.user_id === userId);
  return (
    <section data-testid="package-monitor-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card size="small">
        <MonthPicker
          month={month}
          onChange={(value) => {
            setMonth(value);
            setPage(1);
          }}
        />
      </Card>
      {packagesCarryNoLimits(catalogue.data) && (
        <Alert type="info" showIcon title={t('usage.monitor.noLimits')} data-testid="usage-no-limits" />
      )}
      <Typography.Text type="secondary">{t('usage.monitor.rankNote')}</Typography.Text>
      <Card size="small" title={t('usage.monitor.title')}>
        <Table<UserUsage>
          rowKey="user_id"
          size="small"
          data-testid="usage-ranking"
          loading={ranking.isFetching}
          dataSource={ranking.data?.list ?? []}
          rowSelection={{
            type: 'radio',
            selectedRowKeys: userId === undefined ? [] : [userId],
            onChange: (keys) => setUserId(keys[0] === undefined ? undefined : Number(keys[0])),
          }}
          onRow={(row) => ({ onClick: () => setUserId(row.user_id) })}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: ranking.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            { key: 'account', dataIndex: 'account', title: t('usage.monitor.account'), ellipsis: true },
            { key: 'name', dataIndex: 'name', title: t('usage.monitor.name'), ellipsis: true },
            { key: 'sites', dataIndex: 'sites', title: t('usage.monitor.sites') },
            {
              key: 'bytes_out',
              dataIndex: 'bytes_out',
              title: t('usage.figures.bytesOut'),
              render: (value: number) => formatBytes(value, language),
            },
            {
              key: 'p95_bps',
              dataIndex: 'p95_bps',
              title: t('usage.figures.p95'),
              render: (value: number) => formatBitRate(value, language),
            },
            {
              key: 'forecast_bytes_out',
              dataIndex: 'forecast_bytes_out',
              title: t('usage.figures.forecast'),
              render: (value: number) => formatBytes(value, language),
            },
            {
              key: 'requests',
              dataIndex: 'requests',
              title: t('usage.figures.requests'),
              render: (value: number) => formatNumber(value, language),
            },
          ]}
        />
      </Card>
      {userId !== undefined && usage.data && (
        <>
          <Card size="small" title={t('usage.monitor.userTitle', { account: picked?.account ?? `#${userId}` })} />
          <UsageSummary usage={usage.data} />
        </>
      )}
    </section>
  );
};
