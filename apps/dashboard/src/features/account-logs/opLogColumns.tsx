import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { i18n as I18n } from 'i18next';
import { actionText } from './actions/actionText.ts';
import { targetText } from './actions/targetText.ts';
import type { OpLogEntry } from './api.ts';
import { formatLogTime } from './logTime.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Time, who (for admins), the action and its call, the objects, where from and how signed in; the detail opens a drawer. */
export const opLogColumns = (
  i18n: Pick<I18n, 't' | 'exists'>,
  language: string,
  everyone: boolean,
  onView: (entry: OpLogEntry) => void,
): ColumnsType<OpLogEntry> => {
  const { t } = i18n;
  return [
    {
      key: 'time',
      dataIndex: 'created_at',
      title: t('accountLogs.time'),
      onCell: () => NO_WRAP,
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
      onCell: () => NO_WRAP,
      render: (_value, entry) => (
        <Tooltip title={`${entry.action} · ${entry.method} ${entry.route}`}>
          <span data-testid={`op-log-action:${entry.id}`}>{actionText(i18n, entry.action).text}</span>
        </Tooltip>
      ),
    },
    {
      key: 'target',
      title: t('accountLogs.target'),
      width: 200,
      ellipsis: { showTitle: false },
      render: (_value, entry) => {
        const text = targetText(entry);
        return text ? (
          <Tooltip title={entry.target_ids.length > 0 ? `${text} (${entry.target_ids.join(', ')})` : text}>
            <span data-testid={`op-log-target:${entry.id}`}>{text}</span>
          </Tooltip>
        ) : (
          '—'
        );
      },
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
};
