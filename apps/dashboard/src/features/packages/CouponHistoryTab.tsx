import type { CouponHistoryView } from '@rampart/contracts';
import InputNumber from 'antd/es/input-number';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { useCouponHistory } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';

/** Who used which coupon on which order, and how much it took off; of one coupon when one is chosen. */
export const CouponHistoryTab = ({
  couponId,
  onCouponId,
}: {
  couponId: number | undefined;
  onCouponId: (id: number | undefined) => void;
}) => {
  const { t, i18n } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const [page, setPage] = useState({ page: 1, limit: 20 });
  const history = useCouponHistory({ ...page, ...(couponId !== undefined && { coupon_id: couponId }) });

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <span>{t('packages.history.couponId')}</span>
        <InputNumber<number>
          aria-label={t('packages.history.couponId')}
          min={1}
          precision={0}
          value={couponId ?? null}
          placeholder={t('packages.history.allCoupons')}
          onChange={(value) => {
            setPage((current) => ({ ...current, page: 1 }));
            onCouponId(value ?? undefined);
          }}
        />
      </Space>
      <Table<CouponHistoryView>
        rowKey="id"
        size="middle"
        data-testid="coupon-history-table"
        loading={history.isFetching && !history.data}
        dataSource={history.data?.list ?? []}
        locale={{ emptyText: t('packages.history.empty') }}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: history.data?.total ?? 0,
          showTotal: totalText,
        }}
        onChange={(pagination) => setPage({ page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 })}
        columns={[
          {
            key: 'user',
            title: t('packages.history.user'),
            render: (_, row) => `${row.username} (#${row.user_id})`,
          },
          { key: 'code', dataIndex: 'code', title: t('packages.coupons.code') },
          { key: 'order', dataIndex: 'order_id', title: t('packages.history.order') },
          {
            key: 'amount_off',
            dataIndex: 'amount_off',
            title: t('packages.history.amountOff'),
            align: 'right',
            render: (cents: number) => formatCents(cents),
          },
          {
            key: 'time',
            dataIndex: 'created_at',
            title: t('packages.history.time'),
            render: (iso: string) => new Date(iso).toLocaleString(i18n.language),
          },
        ]}
      />
    </>
  );
};
