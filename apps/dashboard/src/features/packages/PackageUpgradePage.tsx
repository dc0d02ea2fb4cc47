import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { PackageUpView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { usePackageActions, usePackages, usePackUps } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { PackageNames } from './PackageNames.tsx';
import { PackUpModal } from './PackUpModal.tsx';

/** Spec §2 /package/upgrade (admin:package): the upgrade packs users add to their packages. */
export const Component = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const packUps = usePackUps();
  const packages = usePackages();
  const actions = usePackageActions();
  // undefined: closed; null: adding one.
  const [editing, setEditing] = useState<PackageUpView | null>();
  const names = useMemo(() => new Map((packages.data ?? []).map((pkg) => [pkg.id, pkg.name])), [packages.data]);

  return (
    <section data-testid="package-upgrade-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} style={{ marginBottom: 16 }}>
        {t('packages.upgrade.add')}
      </Button>
      <Table<PackageUpView>
        rowKey="id"
        size="middle"
        data-testid="package-up-table"
        loading={packUps.isFetching && !packUps.data}
        dataSource={packUps.data ?? []}
        locale={{ emptyText: t('packages.upgrade.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{ showTotal: totalText }}
        columns={[
          { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
          { key: 'name', dataIndex: 'name', title: t('packages.upgrade.name') },
          {
            key: 'kind',
            dataIndex: 'kind',
            title: t('packages.upgrade.kind'),
            render: (kind: string) => t(`packages.kind.${kind}`, { defaultValue: kind }),
          },
          {
            key: 'amount',
            title: t('packages.upgrade.amount'),
            render: (_, pack) => `${pack.amount} ${t(`packages.unit.${pack.kind}`, { defaultValue: '' })}`.trim(),
          },
          {
            key: 'price',
            dataIndex: 'price_month',
            title: t('packages.upgrade.price'),
            align: 'right',
            render: (cents: number) => formatCents(cents),
          },
          {
            key: 'packages',
            dataIndex: 'package_ids',
            title: t('packages.upgrade.packages'),
            render: (ids: number[]) => <PackageNames ids={ids} names={names} />,
          },
          {
            key: 'on_sale',
            title: t('packages.upgrade.onSale'),
            render: (_, pack) => (
              <Switch
                size="small"
                checked={pack.on_sale}
                aria-label={t('packages.column.onSaleOf', { name: pack.name })}
                onChange={async (checked) => {
                  await actions.packUps.update(pack.id, { on_sale: checked }).catch(() => undefined);
                }}
              />
            ),
          },
          { key: 'sort', dataIndex: 'sort', title: t('packages.upgrade.sort') },
          {
            key: 'actions',
            title: t('packages.common.actions'),
            fixed: 'right',
            render: (_, pack) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(pack)}
                  data-testid={`package-up-edit:${pack.name}`}
                >
                  {t('packages.common.edit')}
                </Button>
                <Popconfirm
                  title={t('packages.upgrade.confirmDelete', { name: pack.name })}
                  okText={t('packages.common.confirm')}
                  cancelText={t('packages.common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    try {
                      await actions.packUps.remove(pack.id);
                      feedback.success(t('packages.upgrade.deleted'));
                    } catch {
                      // The client showed why.
                    }
                  }}
                >
                  <Button type="link" size="small" danger data-testid={`package-up-delete:${pack.name}`}>
                    {t('packages.common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined && <PackUpModal pack={editing} onClose={() => setEditing(undefined)} />}
    </section>
  );
};
