import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { CouponView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { type PageQuery, useCoupons, usePackageActions, usePackages } from './api.ts';
import { CouponModal } from './CouponModal.tsx';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { PackageNames } from './PackageNames.tsx';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** The coupons, paged by the server; a row's history link opens the history tab on that coupon. */
export const CouponsTab = ({ onHistory }: { onHistory: (coupon: CouponView) => void }) => {
  const { t, i18n } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const [query, setQuery] = useState<PageQuery>({ page: 1, limit: 20 });
  const coupons = useCoupons(query);
  const packages = usePackages();
  const actions = usePackageActions();
  // undefined: closed; null: adding one.
  const [editing, setEditing] = useState<CouponView | null>();
  const names = useMemo(() => new Map((packages.data ?? []).map((pkg) => [pkg.id, pkg.name])), [packages.data]);
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} style={{ marginBottom: 16 }}>
        {t('packages.coupons.add')}
      </Button>
      <Table<CouponView>
        rowKey="id"
        size="middle"
        data-testid="coupon-table"
        loading={coupons.isFetching && !coupons.data}
        dataSource={coupons.data?.list ?? []}
        locale={{ emptyText: t('packages.coupons.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: coupons.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) => setQuery({ page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 })}
        columns={[
          { key: 'code', dataIndex: 'code', title: t('packages.coupons.code'), onCell: () => NO_WRAP },
          {
            key: 'value',
            title: t('packages.coupons.value'),
            onCell: () => NO_WRAP,
            render: (_, coupon) =>
              coupon.kind === 'percent'
                ? t('packages.coupons.percentOff', { percent: coupon.value })
                : t('packages.coupons.amountOff', { amount: formatCents(coupon.value) }),
          },
          {
            key: 'min_spend',
            dataIndex: 'min_spend',
            title: t('packages.coupons.minSpend'),
            align: 'right',
            render: (cents: number) => formatCents(cents),
          },
          {
            key: 'packages',
            dataIndex: 'package_ids',
            title: t('packages.coupons.packages'),
            render: (ids: number[]) => <PackageNames ids={ids} names={names} />,
          },
          {
            key: 'valid',
            title: t('packages.coupons.valid'),
            onCell: () => NO_WRAP,
            render: (_, coupon) => `${time(coupon.starts_at)} ~ ${time(coupon.ends_at)}`,
          },
          { key: 'uses_per_user', dataIndex: 'uses_per_user', title: t('packages.coupons.usesPerUser') },
          {
            key: 'used',
            title: t('packages.coupons.used'),
            render: (_, coupon) => `${coupon.used} / ${coupon.uses_total}`,
          },
          {
            key: 'enabled',
            title: t('packages.coupons.enabled'),
            render: (_, coupon) => (
              <Switch
                size="small"
                checked={coupon.enabled}
                aria-label={t('packages.coupons.enabledOf', { code: coupon.code })}
                onChange={async (checked) => {
                  await actions.coupons.update(coupon.id, { enabled: checked }).catch(() => undefined);
                }}
              />
            ),
          },
          {
            key: 'actions',
            title: t('packages.common.actions'),
            fixed: 'right',
            onCell: () => NO_WRAP,
            render: (_, coupon) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => onHistory(coupon)}>
                  {t('packages.coupons.history')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(coupon)}
                  data-testid={`coupon-edit:${coupon.code}`}
                >
                  {t('packages.common.edit')}
                </Button>
                <Popconfirm
                  title={t('packages.coupons.confirmDelete', { code: coupon.code })}
                  okText={t('packages.common.confirm')}
                  cancelText={t('packages.common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await actions.coupons.remove(coupon.id).catch(() => undefined);
                  }}
                >
                  <Button type="link" size="small" danger data-testid={`coupon-delete:${coupon.code}`}>
                    {t('packages.common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined && <CouponModal coupon={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
};
