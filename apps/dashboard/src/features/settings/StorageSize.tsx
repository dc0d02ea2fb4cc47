import { useQuery } from '@tanstack/react-query';
import Descriptions from 'antd/es/descriptions';
import { useTranslation } from 'react-i18next';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { formatBytes } from '../monitor/model/units.ts';

interface Storage {
  dialect: 'sqlite' | 'postgres';
  config_bytes: number;
  logs_bytes: number;
  /** Present when the logs and their rollups live in ClickHouse (RAMPART_LOGS_URL). */
  clickhouse_bytes?: number;
}

/** Beside the retention settings: what the configuration and the logs take on disk now (GET /v1/system/storage). */
export const StorageSize = () => {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const storage = useQuery({
    queryKey: ['system', 'storage'],
    queryFn: ({ signal }) => http.get<Storage>('/v1/system/storage', { signal }),
  });
  if (!storage.data) return null;
  const { dialect, config_bytes, logs_bytes, clickhouse_bytes } = storage.data;
  return (
    <Descriptions
      data-testid="storage-size"
      size="small"
      column={1}
      bordered
      style={{ maxWidth: 560, marginBottom: 16 }}
      title={t('settings.storage.title')}
      items={[
        { key: 'dialect', label: t('settings.storage.dialect'), children: t(`settings.storage.${dialect}`) },
        { key: 'config', label: t('settings.storage.config'), children: formatBytes(config_bytes, i18n.language) },
        { key: 'logs', label: t('settings.storage.logs'), children: formatBytes(logs_bytes, i18n.language) },
        ...(clickhouse_bytes === undefined
          ? []
          : [
              {
                key: 'clickhouse',
                label: t('settings.storage.clickhouse'),
                children: formatBytes(clickhouse_bytes, i18n.language),
              },
            ]),
      ]}
    />
  );
};
