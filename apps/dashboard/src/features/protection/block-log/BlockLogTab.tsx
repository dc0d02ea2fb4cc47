import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useTotalText } from '../../../shared/table/totals.ts';
import { type BlockLogEntry, type BlockLogFilter, type PagedQuery, useBlockLog } from '../api.ts';
import { BlockLogFilters } from './BlockLogFilters.tsx';
import { blockLogColumns } from './blockLogColumns.tsx';
import { useAllowIp } from './useAllowIp.ts';
import { useSkipWafRules } from './useSkipWafRules.ts';

/** Requests protection stopped, newest first, filtered and paged by the server. */
export const BlockLogTab = () => {
  const { t, i18n } = useTranslation();
  const totalText = useTotalText();
  const feedback = useFeedback();
  const [query, setQuery] = useState<PagedQuery<BlockLogFilter>>({ page: 1, limit: 20 });
  const log = useBlockLog(query);
  const allowIp = useAllowIp();
  const filter = (change: BlockLogFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  const allow = async (row: BlockLogEntry) => {
    await allowIp(row.site_id, row.client_ip);
    feedback.success(t('protection.blockLog.allowed', { ip: row.client_ip }));
  };
  const skipWafRules = useSkipWafRules();
  const skipRules = async (row: BlockLogEntry, ids: number[]) => {
    const rules = ids.join(', ');
    if (await skipWafRules(row.site_id, ids)) feedback.success(t('protection.blockLog.rulesSkipped', { rules }));
    else feedback.error(t('protection.blockLog.tooManySkipped'));
  };
  return (
    <>
      <BlockLogFilters filter={query} onChange={filter} />
      <Table<BlockLogEntry & { key: number }>
        rowKey="key"
        size="small"
        data-testid="block-log"
        loading={log.isFetching}
        // Log lines have no id: their place on the page keys them.
        dataSource={(log.data?.list ?? []).map((row, index) => ({ ...row, key: index }))}
        columns={blockLogColumns(t, i18n.language, allow, skipRules)}
        scroll={{ x: 1100 }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: log.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
    </>
  );
};
