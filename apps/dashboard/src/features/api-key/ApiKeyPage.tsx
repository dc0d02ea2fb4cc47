import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Popconfirm from 'antd/es/popconfirm';
import Spin from 'antd/es/spin';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ApiKeyForm, type KeySettings } from './ApiKeyForm.tsx';
import { useApiKey, useApiKeyActions } from './api.ts';
import { KeyDetails } from './KeyDetails.tsx';
import { API_KEY_LOCALES } from './locales/bundle.ts';
import { SecretModal } from './SecretModal.tsx';

/** Spec §2 /account/api: the user's API key; create, change scope and allow list, rotate, delete. */
export const Component = () => {
  const { t } = useLocales(API_KEY_LOCALES);
  const feedback = useFeedback();
  const apiKey = useApiKey();
  const actions = useApiKeyActions();
  const [editing, setEditing] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const current = apiKey.data ?? null;

  const save = async (settings: KeySettings) => {
    if (current) {
      await actions.update(settings);
      feedback.success(t('apiKey.saved'));
      return;
    }
    setToken((await actions.create(settings)).token ?? null);
  };
  const rotate = async () => setToken((await actions.update({ rotate: true })).token ?? null);
  const remove = async () => {
    await actions.remove();
    feedback.success(t('apiKey.deleted'));
  };

  return (
    <section data-testid="api-key-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <p style={{ maxWidth: 720 }}>{t('apiKey.intro')}</p>
      {apiKey.isPending ? (
        <Spin />
      ) : current ? (
        <>
          <KeyDetails apiKey={current} />
          <div style={{ display: 'flex', gap: 8, marginTop: 16 }}>
            <Button onClick={() => setEditing(true)}>{t('apiKey.edit')}</Button>
            <Popconfirm
              title={t('apiKey.confirmRotate')}
              okText={t('apiKey.confirm')}
              cancelText={t('apiKey.cancel')}
              onConfirm={() => rotate().catch(() => undefined)}
            >
              <Button>{t('apiKey.rotate')}</Button>
            </Popconfirm>
            <Popconfirm
              title={t('apiKey.confirmDelete')}
              okText={t('apiKey.confirm')}
              cancelText={t('apiKey.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove().catch(() => undefined)}
            >
              <Button danger>{t('apiKey.delete')}</Button>
            </Popconfirm>
          </div>
        </>
      ) : (
        <Empty description={t('apiKey.none')}>
          <Button type="primary" onClick={() => setEditing(true)}>
            {t('apiKey.create')}
          </Button>
        </Empty>
      )}
      <ApiKeyForm open={editing} apiKey={current} onSave={save} onClose={() => setEditing(false)} />
      <SecretModal token={token} onClose={() => setToken(null)} />
    </section>
  );
};
