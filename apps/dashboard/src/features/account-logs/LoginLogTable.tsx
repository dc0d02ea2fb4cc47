import { LOGIN_RESULTS, type LoginResult } from '@rampart/contracts';
import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTotalText } from '../../shared/table/totals.ts';
import { type LoginLogEntry, type LoginLogFilter, type Paged, useLoginLog } from './api.ts';
import { formatLogTime, queryTime } from './logTime.ts';
import { SearchField } from './SearchField.tsx';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

const known = (value: string, list: readonly string[]) => list.includes(value);

const loginColumns = (t: TFunction, language: string, everyone: boolean): ColumnsType<LoginLogEntry> => [
  {
    key: 'time',
    dataIndex: 'created_at',
    title: t('accountLogs.time'),
    onCell: () => NO_WRAP,
    render: (at: string) => formatLogTime(at, language),
  },
  ...(everyone ? [{ key: 'account', dataIndex: 'account', title: t('accountLogs.user'), width: 160 }] : []),
  { key: 'ip', dataIndex: 'ip', title: t('accountLogs.ip'), width: 150 },
  {
    key: 'result',
    dataIndex: 'result',
    title: t('accountLogs.result'),
    width: 200,
    render: (result: string) => (
      <Tag color={result === 'ok' ? 'green' : 'red'}>
        {known(result, LOGIN_RESULTS) ? t(`accountLogs.loginResult.${result}`) : result}
      </Tag>
    ),
  },
  {
    key: 'method',
    dataIndex: 'method',
    title: t('accountLogs.method'),
    width: 130,
    render: (method: string) =>
      known(method, ['password', 'totp', 'recovery', 'key']) ? t(`accountLogs.loginMethod.${method}`) : method,
  },
  {
    key: 'agent',
    dataIndex: 'user_agent',
    title: t('accountLogs.userAgent'),
    width: 360,
    ellipsis: { showTitle: false },
    render: (agent: string) =>
      agent ? (
        <Tooltip title={agent} placement="topLeft">
          <span>{agent}</span>
        </Tooltip>
      ) : (
        '—'
      ),
  },
];

/** Sign-in attempts, newest first, filtered and paged by the server; `everyone` adds the account column and filter. */
export const LoginLogTable = ({ everyone }: { everyone: boolean }) => {
  const { t, i18n } = useTranslation();
  const totalText = useTotalText();
  const [query, setQuery] = useState<Paged<LoginLogFilter>>({ page: 1, limit: 20 });
  const log = useLoginLog(query);
  const filter = (change: LoginLogFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="login-log-filters">
        {everyone && <SearchField label={t('accountLogs.filter.user')} onSearch={(account) => filter({ account })} />}
        <SearchField label={t('accountLogs.filter.ip')} onSearch={(ip) => filter({ ip })} />
        <Select<LoginResult>
          allowClear
          aria-label={t('accountLogs.filter.result')}
          placeholder={t('accountLogs.filter.result')}
          style={{ width: 220 }}
          onChange={(result) => filter({ result })}
          options={LOGIN_RESULTS.map((value) => ({ value, label: t(`accountLogs.loginResult.${value}`) }))}
        />
        <DatePicker.RangePicker
          showTime
          allowEmpty={[true, true]}
          aria-label={t('accountLogs.filter.time')}
          onChange={(range) => filter({ from: queryTime(range?.[0]), to: queryTime(range?.[1]) })}
        />
      </div>
      <Table<LoginLogEntry>
        rowKey="id"
        size="small"
        data-testid="login-log"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        columns={loginColumns(t, i18n.language, everyone)}
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
    </>
  );
};
