import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTotalText } from '../../../shared/table/totals.ts';
import { type Ban, type BanQuery, useBanHistory } from '../api.ts';
import { BanFilters } from './BanFilters.tsx';
import { banHistoryColumns } from './banColumns.tsx';

/** Bans that ended, by expiry or by hand. */
export const BanHistoryTab = () => {
  const { t, i18n } = useTranslation();
  const totalText = useTotalText();
  const [query, setQuery] = useState<BanQuery>({ page: 1, limit: 20 });
  const history = useBanHistory(query);
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 12 }}>
        <BanFilters filter={query} onChange={(change) => setQuery((current) => ({ ...current, ...change, page: 1 }))} />
      </div>
      <Table<Ban>
        rowKey="id"
        size="small"
        data-testid="ban-history"
        loading={history.isFetching}
        dataSource={history.data?.list ?? []}
        columns={banHistoryColumns(t, i18n.language)}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: history.data?.total ?? 0,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
    </>
  );
};
