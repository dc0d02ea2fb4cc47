import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { type FrontLogEntry, useFrontLog } from '../../shared/log/frontLog.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { LOG_LOCALES } from './locales/bundle.ts';
import { logColumns } from './logColumns.tsx';

const matches = (entry: FrontLogEntry, filter: string) => {
  const needle = filter.trim().toLowerCase();
  return !needle || [entry.message, entry.url, entry.code ?? ''].some((text) => text.toLowerCase().includes(needle));
};

/** Spec §2 front-end log: uncaught errors, rejected promises and failed requests of this tab. */
export const Component = () => {
  const { t, i18n } = useLocales(LOG_LOCALES);
  const totalText = useTotalText();
  const entries = useFrontLog((state) => state.entries);
  const clear = useFrontLog((state) => state.clear);
  const [filter, setFilter] = useState('');
  const shown = entries.filter((entry) => matches(entry, filter));
  return (
    <section data-testid="log-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <h2 style={{ fontSize: 18, fontWeight: 600, margin: 0, marginRight: 'auto' }}>
          {t('route.log')} <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 14 }}>{totalText(entries.length)}</span>
        </h2>
        <Input
          allowClear
          aria-label={t('log.filter')}
          placeholder={t('log.filter')}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          style={{ width: 240 }}
        />
        <Button icon={<DeleteOutlined />} disabled={entries.length === 0} onClick={clear}>
          {t('log.clear')}
        </Button>
      </div>
      <Table<FrontLogEntry>
        rowKey="id"
        size="small"
        dataSource={shown}
        columns={logColumns(t, i18n.language)}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('log.empty') }}
        expandable={{
          rowExpandable: (entry) => Boolean(entry.stack),
          expandedRowRender: (entry) => (
            <pre data-testid="log-stack" style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 12 }}>
              {entry.stack}
            </pre>
          ),
        }}
      />
    </section>
  );
};
