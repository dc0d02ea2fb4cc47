import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { formatTime } from '../../protection/shared/time.ts';
import type { AccessLogEntry } from '../api.ts';
import { countryName } from '../model/countries.ts';
import { formatBytes } from '../model/units.ts';

const statusColor = (status: number) =>
  status >= 500 ? 'red' : status >= 400 ? 'orange' : status >= 300 ? 'blue' : status >= 200 ? 'green' : 'default';

/** Every value comes from a request and is shown as text (React escapes it). */
export const accessLogColumns = (
  t: TFunction,
  language: string,
  onOpen: (row: AccessLogEntry) => void,
): ColumnsType<AccessLogEntry> => [
  {
    key: 'time',
    dataIndex: 'time',
    title: t('monitor.accessLog.time'),
    width: 180,
    render: (time: string) => formatTime(time, language),
  },
  {
    key: 'request',
    title: t('monitor.accessLog.request'),
    ellipsis: true,
    render: (_, row) => (
      <Typography.Text>
        <Typography.Text strong>{row.method}</Typography.Text> {row.host}
        {row.uri}
      </Typography.Text>
    ),
  },
  {
    key: 'status',
    dataIndex: 'status',
    title: t('monitor.accessLog.status'),
    width: 110,
    render: (status: number, row) => (
      <>
        <Tag color={statusColor(status)}>{status}</Tag>
        {row.block_reason !== '' && <Tag color="red">{t('monitor.accessLog.blocked')}</Tag>}
      </>
    ),
  },
  { key: 'client', dataIndex: 'client_ip', title: t('monitor.accessLog.client'), width: 170, ellipsis: true },
  {
    key: 'country',
    dataIndex: 'country',
    title: t('monitor.accessLog.country'),
    width: 120,
    ellipsis: true,
    render: (code: string) => (code === '' ? '—' : <span title={code}>{countryName(code, language)}</span>),
  },
  {
    key: 'user_agent',
    dataIndex: 'user_agent',
    title: t('monitor.field.user_agent'),
    ellipsis: true,
    width: 220,
  },
  {
    key: 'size',
    dataIndex: 'bytes_sent',
    title: t('monitor.accessLog.size'),
    width: 100,
    render: (bytes: number) => formatBytes(bytes, language),
  },
  { key: 'cache', dataIndex: 'cache_status', title: t('monitor.accessLog.cacheStatus'), width: 110 },
  {
    key: 'duration',
    dataIndex: 'request_time_ms',
    title: t('monitor.accessLog.duration'),
    width: 100,
    render: (ms: number) => `${ms} ms`,
  },
  {
    key: 'details',
    title: '',
    width: 80,
    render: (_, row) => (
      <Button type="link" size="small" onClick={() => onOpen(row)}>
        {t('monitor.accessLog.details')}
      </Button>
    ),
  },
];
