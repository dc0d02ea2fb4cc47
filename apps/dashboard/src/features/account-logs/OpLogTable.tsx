import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { OP_LOG_ACTION_LOCALES } from './actions/locales/bundle.ts';
import { type OpLogEntry, type OpLogFilter, type Paged, useOpLog, useOpLogExport } from './api.ts';
import { OpLogDetail } from './OpLogDetail.tsx';
import { OpLogFilters } from './OpLogFilters.tsx';
import { opLogColumns } from './opLogColumns.tsx';

/** Writes through the API, newest first, filtered and paged by the server; `everyone` adds the user column and filter. */
export const OpLogTable = ({ everyone }: { everyone: boolean }) => {
  const { t, i18n } = useLocales(OP_LOG_ACTION_LOCALES);
  const totalText = useTotalText();
  const [query, setQuery] = useState<Paged<OpLogFilter>>({ page: 1, limit: 20 });
  const [viewing, setViewing] = useState<OpLogEntry | null>(null);
  const log = useOpLog(query);
  const exportCsv = useOpLogExport();
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    const { page: _page, limit: _limit, ...filter } = query;
    setExporting(true);
    try {
      await exportCsv(filter);
    } catch {
      // Shown as a popup by the call's error handler.
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <OpLogFilters
        everyone={everyone}
        onChange={(change) => setQuery((current) => ({ ...current, ...change, page: 1 }))}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button loading={exporting} onClick={() => download()}>
          {t('accountLogs.exportCsv')}
        </Button>
      </div>
      <Table<OpLogEntry>
        rowKey="id"
        size="small"
        data-testid="op-log"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        columns={opLogColumns(i18n, i18n.language, everyone, setViewing)}
        scroll={{ x: 'max-content' }}
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
      <OpLogDetail entry={viewing} onClose={() => setViewing(null)} />
    </>
  );
};
