import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import type { OpLogEntry } from './api.ts';
import { formatLogTime } from './logTime.ts';

/** Time, who (for admins), the action and its call, the objects, where from and how signed in; the detail opens a drawer. */
export const opLogColumns = (
  t: TFunction,
  language: string,
  everyone: boolean,
  onView: (entry: OpLogEntry) => void,
): ColumnsType<OpLogEntry> => [
  {
    key: 'time',
    dataIndex: 'created_at',
    title: t('accountLogs.time'),
    width: 180,
    render: (at: string) => formatLogTime(at, language),
  },
  ...(everyone
    ? [
        {
          key: 'user',
          title: t('accountLogs.user'),
          width: 140,
          render: (_value: unknown, entry: OpLogEntry) => (
            <span title={`#${entry.user_id}`}>
              {entry.account ?? t('accountLogs.deletedUser')}
              {entry.impersonator_id !== null && (
                <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                  {t('accountLogs.asBy', { admin: entry.impersonator_account ?? `#${entry.impersonator_id}` })}
                </div>
              )}
            </span>
          ),
        },
      ]
    : []),
  {
    key: 'action',
    title: t('accountLogs.action'),
    render: (_value, entry) => (
      <Typography.Text title={`${entry.method} ${entry.route}`}>
        <Typography.Text code>{entry.action}</Typography.Text>
      </Typography.Text>
    ),
  },
  {
    key: 'target',
    title: t('accountLogs.target'),
    width: 140,
    ellipsis: true,
    render: (_value, entry) => entry.target_ids.join(', ') || '—',
  },
  { key: 'ip', dataIndex: 'ip', title: t('accountLogs.ip'), width: 150 },
  {
    key: 'via',
    title: t('accountLogs.via'),
    width: 120,
    render: (_value, entry) => (
      <Tag color={entry.auth_method === 'key' ? 'purple' : 'blue'}>
        {t(`accountLogs.authMethod.${entry.auth_method}`)}
      </Tag>
    ),
  },
  {
    key: 'detail',
    title: t('accountLogs.detail'),
    width: 90,
    render: (_value, entry) => (
      <Button type="link" size="small" onClick={() => onView(entry)}>
        {t('accountLogs.view')}
      </Button>
    ),
  },
];
