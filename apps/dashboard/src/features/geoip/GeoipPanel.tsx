import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { formatBytes } from '../sys-op/rules.ts';
import { type GeoipDatabase, useGeoip, useGeoipActions } from './api.ts';
import { GEOIP_LOCALES } from './locales/bundle.ts';

const when = (ms: number, language: string) => (ms === 0 ? '—' : new Date(ms).toLocaleString(language));

/** The GeoIP database the edges use (its digest, source and date), an upload in its place, and the way back. */
export const GeoipPanel = () => {
  const { t, i18n } = useLocales(GEOIP_LOCALES);
  const feedback = useFeedback();
  const current = useGeoip();
  const actions = useGeoipActions();
  const [uploading, uploadingWhile] = useSubmitting();
  const [restoring, restoringWhile] = useSubmitting();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState(false);
  const language = i18n.language;

  const send = async () => {
    if (!file) {
      setFileError(true);
      return;
    }
    await uploadingWhile(async () => {
      await actions.upload(file);
      setFile(null);
      feedback.success(t('geoip.uploaded'));
    });
  };
  const database: GeoipDatabase | null | undefined = current.data;

  return (
    <div data-testid="geoip-panel" style={{ display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 820 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('geoip.help')}
      </Typography.Paragraph>
      {database === null && <Alert type="warning" showIcon title={t('geoip.none')} />}
      {database && (
        <Descriptions
          bordered
          size="small"
          column={1}
          data-testid="geoip-current"
          items={[
            {
              key: 'source',
              label: t('geoip.source'),
              children: t(database.source === 'bundled' ? 'geoip.sourceBundled' : 'geoip.sourceUploaded'),
            },
            { key: 'name', label: t('geoip.name'), children: database.name },
            { key: 'type', label: t('geoip.type'), children: database.database_type },
            {
              key: 'sha256',
              label: t('geoip.sha256'),
              children: <code style={{ fontSize: 12, wordBreak: 'break-all' }}>{database.sha256}</code>,
            },
            { key: 'size', label: t('geoip.size'), children: formatBytes(database.size) },
            { key: 'built', label: t('geoip.builtAt'), children: when(database.built_at * 1000, language) },
            { key: 'uploaded', label: t('geoip.uploadedAt'), children: when(database.uploaded_at, language) },
          ]}
        />
      )}
      <Space wrap align="start">
        <div>
          <input
            type="file"
            accept=".mmdb,application/octet-stream"
            aria-label={t('geoip.file')}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setFileError(false);
            }}
          />
          {fileError && <div style={{ color: '#ff4d4f' }}>{t('geoip.fileRule')}</div>}
        </div>
        <Button type="primary" loading={uploading} onClick={() => void send().catch(() => undefined)}>
          {t('geoip.upload')}
        </Button>
        {database?.source === 'uploaded' && (
          <Popconfirm
            title={t('geoip.restoreConfirm')}
            onConfirm={() =>
              restoringWhile(async () => {
                await actions.restore();
                feedback.success(t('geoip.restored'));
              }).catch(() => undefined)
            }
          >
            <Button loading={restoring}>{t('geoip.restore')}</Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
};
