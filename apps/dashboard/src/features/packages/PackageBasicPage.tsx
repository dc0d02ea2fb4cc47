import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { PackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { usePackageActions, usePackages } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { PackageDrawer } from './PackageDrawer.tsx';
import { PackageGroupsTab } from './PackageGroupsTab.tsx';
import { packageColumns } from './packageColumns.tsx';

const PackagesTab = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const packages = usePackages();
  const actions = usePackageActions();
  // undefined: closed; null: adding one.
  const [editing, setEditing] = useState<PackageView | null>();

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} style={{ marginBottom: 16 }}>
        {t('packages.basic.add')}
      </Button>
      <Table<PackageView>
        rowKey="id"
        size="middle"
        data-testid="package-table"
        loading={packages.isFetching && !packages.data}
        dataSource={packages.data ?? []}
        locale={{ emptyText: t('packages.basic.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{ showTotal: totalText }}
        columns={packageColumns(t, {
          edit: setEditing,
          // A sold package is refused (409) with the server's reason, shown by the client's popup.
          remove: async (pkg) => {
            await actions.packages.remove(pkg.id);
            feedback.success(t('packages.basic.deleted'));
          },
          setOnSale: async (pkg, onSale) => {
            await actions.packages.update(pkg.id, { on_sale: onSale });
            feedback.success(t('packages.basic.saved'));
          },
        })}
      />
      {editing !== undefined && <PackageDrawer pkg={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
};

/** Spec §2 /package/basic (admin:package): the packages and their groups. */
export const Component = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  return (
    <section data-testid="package-basic-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'packages', label: t('packages.basic.tab'), children: <PackagesTab /> },
          { key: 'groups', label: t('packages.groups.tab'), children: <PackageGroupsTab /> },
        ]}
      />
    </section>
  );
};
