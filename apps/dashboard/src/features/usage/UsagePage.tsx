import type { UsageSite } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useSession } from '../../shared/session/session.ts';
import { formatBitRate, formatBytes, formatNumber } from '../monitor/model/units.ts';
import { SitePicker } from '../protection/shared/SitePicker.tsx';
import { useOwnPackages, usePackageCatalogue, useUsage } from './api.ts';
import { USAGE_LOCALES } from './locales/bundle.ts';
import { usageBanners } from './model/banners.ts';
import { monthOf } from './model/months.ts';
import { MonthPicker } from './shared/MonthPicker.tsx';
import { UsageSummary } from './shared/UsageSummary.tsx';

/** Spec §2 /user-package/usage: the month's traffic and 95th-percentile bandwidth, per day and per site. */
export const Component = () => {
  const { t, i18n } = useLocales(USAGE_LOCALES);
  const language = i18n.language;
  const [month, setMonth] = useState(() => monthOf(Date.now()));
  const [siteId, setSiteId] = useState<number | undefined>();
  const usage = useUsage({ month, site_id: siteId });
  const userId = useSession((state) => state.user?.id);
  const catalogue = usePackageCatalogue();
  const mine = useOwnPackages(userId);
  const banners = usageBanners(catalogue.data, mine.data);
  return (
    <section data-testid="usage-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card size="small">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          <MonthPicker month={month} onChange={setMonth} />
          <SitePicker
            allowClear
            aria-label={t('usage.site')}
            style={{ width: 240 }}
            value={siteId}
            onChange={setSiteId}
          />
          {banners.percentileBilling && (
            <Typography.Text type="secondary" data-testid="usage-billing-note">
              {t('usage.billingNote')}
            </Typography.Text>
          )}
        </div>
      </Card>
      {banners.noPackages && (
        <Alert type="info" showIcon title={t('usage.noPackages')} data-testid="usage-no-packages" />
      )}
      {usage.data && <UsageSummary usage={usage.data} />}
      <Card size="small" title={t('usage.sites.title')}>
        <Table<UsageSite>
          rowKey="site_id"
          size="small"
          data-testid="usage-sites"
          loading={usage.isFetching}
          dataSource={usage.data?.sites ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { key: 'domain', dataIndex: 'domain', title: t('usage.sites.domain'), ellipsis: true },
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
              key: 'peak_bps',
              dataIndex: 'peak_bps',
              title: t('usage.figures.peak'),
              render: (value: number) => formatBitRate(value, language),
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
    </section>
  );
};
