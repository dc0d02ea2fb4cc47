import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import { useTranslation } from 'react-i18next';
import { actionText } from './actions/actionText.ts';
import { hasTargetNames, targetText } from './actions/targetText.ts';
import type { OpLogEntry } from './api.ts';
import { changesText, formatLogTime } from './logTime.ts';

/** One operation in full: the call, who and how, and the fields it sent with secrets masked by the master. */
export const OpLogDetail = ({ entry, onClose }: { entry: OpLogEntry | null; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Drawer
      open={entry !== null}
      onClose={onClose}
      size={560}
      title={entry ? t('accountLogs.drawer.title', { id: entry.id }) : ''}
      destroyOnHidden
    >
      {entry && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('accountLogs.time')}>
              {formatLogTime(entry.created_at, i18n.language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.user')}>
              {entry.account ?? t('accountLogs.deletedUser')} (#{entry.user_id})
            </Descriptions.Item>
            {entry.impersonator_id !== null && (
              <Descriptions.Item label={t('accountLogs.drawer.impersonator')}>
                #{entry.impersonator_id}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('accountLogs.action')}>
              {actionText(i18n, entry.action).text} ({entry.action})
            </Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.drawer.route')}>
              {entry.method} {entry.route}
            </Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.target')}>
              {targetText(entry) || '—'}
              {hasTargetNames(entry) && ` (${entry.target_ids.join(', ')})`}
            </Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.ip')}>{entry.ip}</Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.userAgent')}>{entry.user_agent || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('accountLogs.via')}>
              {t(`accountLogs.authMethod.${entry.auth_method}`)}
              {entry.api_key_id && ` (${entry.api_key_id})`}
            </Descriptions.Item>
          </Descriptions>
          <h4 style={{ marginTop: 16 }}>{t('accountLogs.drawer.changes')}</h4>
          <pre
            data-testid="op-log-changes"
            style={{
              background: '#f5f5f5',
              padding: 12,
              borderRadius: 6,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {changesText(entry.changes)}
          </pre>
        </>
      )}
    </Drawer>
  );
};
