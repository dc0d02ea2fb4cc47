import type { Site, SiteGroup } from '@rampart/contracts';
import Table, { type TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { type ComponentProps, memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTotalText } from '../../../shared/table/totals.ts';
import type { ListPage, SiteListQuery } from '../siteQueries.ts';
import { useReachesEveryUser } from '../useReachesEveryUser.ts';
import { type SiteRowActions, siteColumns } from './siteColumns.tsx';

const SORT_FIELDS: Record<string, string> = { id: 'id', domain: 'domain', updated_at: 'updated_at' };

const sortOf = (sorter: SorterResult<Site>): string | undefined => {
  const field = SORT_FIELDS[String(sorter.columnKey)];
  if (!field || !sorter.order) return undefined;
  return sorter.order === 'descend' ? `-${field}` : field;
};

// On narrow screens the rows scroll sideways and the pagination stays in view. Not antd's `scroll.x`:
// that measures every column after the first render (a forced layout) and renders the table again.
const WideTable = (props: ComponentProps<'table'>) => <table {...props} style={{ ...props.style, minWidth: 900 }} />;
const COMPONENTS = { table: WideTable };
const STYLES = { content: { overflowX: 'auto' } } as const;
const NO_SITES: Site[] = [];

interface SiteTableProps {
  query: SiteListQuery;
  onQueryChange: (change: (current: SiteListQuery) => SiteListQuery) => void;
  page: ListPage<Site> | undefined;
  loading: boolean;
  groups: readonly SiteGroup[];
  selected: readonly number[];
  onSelect: (ids: number[]) => void;
  actions: SiteRowActions;
}

/**
 * The sites of one page, paged and sorted by the server. Memoized with stable props: opening a
 * dialog does not render the rows again.
 */
export const SiteTable = memo(
  ({ query, onQueryChange, page, loading, groups, selected, onSelect, actions }: SiteTableProps) => {
    const { t, i18n } = useTranslation();
    const admin = useReachesEveryUser();
    const columns = useMemo(
      () => siteColumns(t, i18n.language, groups, query.sort, actions, admin),
      [t, i18n.language, groups, query.sort, actions, admin],
    );
    const rowSelection = useMemo<TableProps<Site>['rowSelection']>(
      () => ({ selectedRowKeys: [...selected], onChange: (keys) => onSelect(keys.map(Number)) }),
      [selected, onSelect],
    );
    const totalText = useTotalText();
    const total = page?.total ?? 0;
    const capped = page?.total_capped === true;
    const pagination = useMemo<TableProps<Site>['pagination']>(
      () => ({
        current: query.page,
        pageSize: query.limit,
        total,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50, 100],
        showTotal: (count) => totalText(count, capped),
      }),
      [query.page, query.limit, total, capped, totalText],
    );
    const onChange = useMemo<TableProps<Site>['onChange']>(
      () => (next, _filters, sorter) => {
        const sort = Array.isArray(sorter) ? undefined : sortOf(sorter);
        onQueryChange((current) => ({
          ...current,
          page: sort === current.sort ? (next.current ?? 1) : 1,
          limit: next.pageSize ?? current.limit,
          sort,
        }));
      },
      [onQueryChange],
    );
    return (
      <Table<Site>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={page?.list ?? NO_SITES}
        columns={columns}
        rowSelection={rowSelection}
        components={COMPONENTS}
        styles={STYLES}
        pagination={pagination}
        onChange={onChange}
      />
    );
  },
);
