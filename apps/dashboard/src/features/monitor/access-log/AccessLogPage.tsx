import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import { MONITOR_LIMITS } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../../protection/locales/bundle.ts';
import { type AccessLogEntry, type AccessLogFilter, useAccessLog, useAccessLogExport } from '../api.ts';
import { MONITOR_LOCALES } from '../locales/bundle.ts';
import { type RangeChoice, rangeQuery } from '../model/ranges.ts';
import { AccessLogDrawer } from './AccessLogDrawer.tsx';
import { AccessLogFilters, type FilterFields } from './AccessLogFilters.tsx';
import { accessLogColumns } from './accessLogColumns.tsx';

const PAGE_SIZE = 50;

/**
 * Spec §2 /site/access-log: lines newest first, paged by the server's cursor. The range is fixed
 * when chosen (or refreshed), so older pages stay the same while new lines arrive.
 */
export const Component = () => {
  const { t, i18n } = useLocales(MONITOR_LOCALES, PROTECTION_LOCALES);
  const [fields, setFields] = useState<FilterFields>({});
  const [range, setRange] = useState<RangeChoice>({ preset: '1h' });
  const [bounds, setBounds] = useState(() => rangeQuery({ preset: '1h' }, Date.now()));
  // The cursors of the pages before the current one; the last is the current page's.
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<AccessLogEntry>();
  const filter: AccessLogFilter = { ...fields, ...bounds };
  const log = useAccessLog(filter, cursors.at(-1), PAGE_SIZE);
  const exportCsv = useAccessLogExport();
  const [exporting, setExporting] = useState(false);

  const restart = (nextRange = range) => {
    setBounds(rangeQuery(nextRange, Date.now()));
    setCursors([]);
  };
  const total = log.data
    ? t(log.data.total_capped ? 'monitor.accessLog.totalCapped' : 'monitor.accessLog.total', {
        count: log.data.total,
      })
    : '';
  const next = log.data?.next_cursor;
  return (
    <section data-testid="access-log-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <AccessLogFilters
        filter={fields}
        range={range}
        onChange={(change) => {
          setFields((current) => ({ ...current, ...change }));
          restart();
        }}
        onRange={(nextRange) => {
          setRange(nextRange);
          restart(nextRange);
        }}
      />
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <Button icon={<ReloadOutlined />} onClick={() => restart()}>
          {t('monitor.accessLog.newest')}
        </Button>
        <Button disabled={cursors.length === 0} onClick={() => setCursors((list) => list.slice(0, -1))}>
          {t('monitor.accessLog.newer')}
        </Button>
        <Button disabled={!next} onClick={() => next && setCursors((list) => [...list, next])}>
          {t('monitor.accessLog.older')}
        </Button>
        <Typography.Text type="secondary" data-testid="access-log-total">
          {total}
        </Typography.Text>
        <Button
          style={{ marginLeft: 'auto' }}
          icon={<DownloadOutlined />}
          loading={exporting}
          title={t('monitor.accessLog.exported', { count: MONITOR_LIMITS.csvMaxRows })}
          onClick={async () => {
            setExporting(true);
            try {
              await exportCsv(filter);
            } catch {
              // The HTTP client has shown the failure.
            } finally {
              setExporting(false);
            }
          }}
        >
          {t('monitor.accessLog.export')}
        </Button>
      </div>
      <Table<AccessLogEntry>
        rowKey="id"
        size="small"
        data-testid="access-log"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        columns={accessLogColumns(t, i18n.language, setOpen)}
        scroll={{ x: 1300 }}
        pagination={false}
      />
      <AccessLogDrawer entry={open} onClose={() => setOpen(undefined)} />
    </section>
  );
};
