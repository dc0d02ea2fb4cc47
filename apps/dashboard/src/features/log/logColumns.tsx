import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import type { FrontLogEntry, FrontLogKind } from '../../shared/log/frontLog.ts';

const KIND_COLORS: Record<FrontLogKind, string> = { error: 'red', rejection: 'orange', request: 'blue' };

/** Time, kind, message and URL; the stack opens under the row. */
export const logColumns = (t: TFunction, language: string): ColumnsType<FrontLogEntry> => [
  {
    key: 'at',
    title: t('log.columns.time'),
    dataIndex: 'at',
    width: 190,
    render: (at: string) => new Date(at).toLocaleString(language),
  },
  {
    key: 'kind',
    title: t('log.columns.kind'),
    dataIndex: 'kind',
    width: 150,
    render: (kind: FrontLogKind) => <Tag color={KIND_COLORS[kind]}>{t(`log.kinds.${kind}`)}</Tag>,
  },
  { key: 'message', title: t('log.columns.message'), dataIndex: 'message', ellipsis: true },
  {
    key: 'url',
    title: t('log.columns.url'),
    dataIndex: 'url',
    ellipsis: true,
    render: (url: string, entry) => (entry.method ? `${entry.method} ${url}` : url),
  },
];
