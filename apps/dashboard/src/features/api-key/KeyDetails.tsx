import Descriptions from 'antd/es/descriptions';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from './api.ts';

const time = (value: string | null, language: string) => (value ? new Date(value).toLocaleString(language) : '—');

/** The key as the master keeps it: id, scope, allow list and use; never the secret. */
export const KeyDetails = ({ apiKey }: { apiKey: ApiKey }) => {
  const { t, i18n } = useTranslation();
  return (
    <Descriptions column={1} bordered size="small" data-testid="api-key-details" style={{ maxWidth: 720 }}>
      <Descriptions.Item label={t('apiKey.keyId')}>
        <Typography.Text copyable code data-testid="api-key-id">
          {apiKey.key_id}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('apiKey.scope')}>
        <Tag color={apiKey.scope === 'write' ? 'orange' : 'blue'}>{t(`apiKey.scopeName.${apiKey.scope}`)}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('apiKey.allowIps')}>
        {apiKey.allow_ips.length > 0 ? apiKey.allow_ips.join(', ') : t('apiKey.anyAddress')}
      </Descriptions.Item>
      <Descriptions.Item label={t('apiKey.created')}>{time(apiKey.created_at, i18n.language)}</Descriptions.Item>
      <Descriptions.Item label={t('apiKey.lastUsed')}>
        {time(apiKey.last_used_at, i18n.language)}
        {apiKey.last_used_ip && ` (${apiKey.last_used_ip})`}
      </Descriptions.Item>
    </Descriptions>
  );
};
