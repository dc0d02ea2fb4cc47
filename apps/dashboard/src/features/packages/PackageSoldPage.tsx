import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { UserPackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { type SoldQuery, usePackageActions, useSoldPackages } from './api.ts';
import { GrantModal } from './GrantModal.tsx';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { type SoldBatch, SoldBatchBar } from './SoldBatchBar.tsx';
import { SoldFilters } from './SoldFilters.tsx';
import { soldColumns } from './soldColumns.tsx';

/** Spec §2 /package/sold (admin:package): every user's packages, filtered, with batch changes and grants. */
export const Component = () => {
  const { t, i18n } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const actions = usePackageActions();
  const [query, setQuery] = useState<SoldQuery>({ page: 1, limit: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [granting, setGranting] = useState(false);
  const sold = useSoldPackages(query);

  const runBatch = async (batch: SoldBatch) => {
    await actions.batch({ ids: selected, ...batch });
    setSelected([]);
    feedback.success(t('packages.batch.done', { count: selected.length }));
  };

  return (
    <section data-testid="package-sold-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <SoldFilters
          filter={query}
          onChange={(change) => {
            setSelected([]);
            setQuery((current) => ({ ...current, ...change, page: 1 }));
          }}
        />
        <span style={{ marginLeft: 'auto' }} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setGranting(true)}>
          {t('packages.grant.button')}
        </Button>
      </div>
      {selected.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          <SoldBatchBar count={selected.length} onRun={runBatch} />
        </div>
      )}
      <Table<UserPackageView>
        rowKey="id"
        size="middle"
        data-testid="sold-table"
        loading={sold.isFetching && !sold.data}
        dataSource={sold.data?.list ?? []}
        locale={{ emptyText: t('packages.sold.empty') }}
        scroll={{ x: 'max-content' }}
        columns={soldColumns(t, i18n.language, async (row) => {
          await actions.removeSold(row.id);
          setSelected((current) => current.filter((id) => id !== row.id));
          feedback.success(t('packages.sold.deleted'));
        })}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: sold.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
      {granting && <GrantModal onClose={() => setGranting(false)} />}
    </section>
  );
};
