import type { MessageSubscriptionBody, SubscriptionEntry } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import Popconfirm from 'antd/es/popconfirm';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { useEffect, useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useSaveSubscription, useSubscription } from './api.ts';
import { MESSAGES_LOCALES } from './locales/bundle.ts';
import { SubscriptionMatrix } from './SubscriptionMatrix.tsx';

/** Channels per message type, and the webhook (URL, secret shown once, test): the caller's own. */
export const SubscriptionPanel = () => {
  const { t } = useLocales(MESSAGES_LOCALES);
  const feedback = useFeedback();
  const subscription = useSubscription();
  const save = useSaveSubscription();
  const [entries, setEntries] = useState<SubscriptionEntry[]>([]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!subscription.data) return;
    setEntries(subscription.data.types);
    setUrl(subscription.data.webhook_url);
  }, [subscription.data]);

  const run = async (body: MessageSubscriptionBody) => {
    setBusy(true);
    try {
      return await save(body);
    } finally {
      setBusy(false);
    }
  };
  const saveAll = async () => {
    await run({ types: entries, webhook_url: url.trim() });
    feedback.success(t('messages.subscribe.saved'));
  };
  const generate = async () => {
    const saved = await run({ webhook_url: url.trim(), generate_secret: true });
    setSecret(saved.webhook_secret ?? null);
  };
  const test = async () => {
    const saved = await run({ webhook_url: url.trim(), send_test: true });
    if (saved.test?.status === 'sent') feedback.success(t('messages.subscribe.testSent'));
    else feedback.error(t('messages.subscribe.testFailed', { error: saved.test?.error ?? '' }));
  };

  if (subscription.isPending) return <Spin />;
  const hasSecret = subscription.data?.has_secret ?? false;
  return (
    <div data-testid="subscription-panel">
      <p>{t('messages.subscribe.intro')}</p>
      <SubscriptionMatrix entries={entries} onChange={setEntries} />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('messages.subscribe.webhookTitle')}
      </Typography.Title>
      <label htmlFor="webhook-url">{t('messages.subscribe.webhookUrl')}</label>
      <Input
        id="webhook-url"
        value={url}
        maxLength={2000}
        placeholder="https://"
        style={{ maxWidth: 560, display: 'block', marginTop: 4 }}
        onChange={(event) => setUrl(event.target.value)}
      />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 720, marginTop: 4 }}>
        {t('messages.subscribe.webhookHelp')}
      </Typography.Paragraph>
      <p data-testid="webhook-secret-state">
        {hasSecret ? t('messages.subscribe.secretSet') : t('messages.subscribe.secretNone')}
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <Button type="primary" loading={busy} onClick={() => saveAll().catch(() => undefined)}>
          {t('messages.subscribe.save')}
        </Button>
        {hasSecret ? (
          <Popconfirm
            title={t('messages.subscribe.confirmRegenerate')}
            okText={t('messages.list.confirm')}
            cancelText={t('messages.list.cancel')}
            onConfirm={() => generate().catch(() => undefined)}
          >
            <Button disabled={!url.trim()}>{t('messages.subscribe.regenerate')}</Button>
          </Popconfirm>
        ) : (
          <Button disabled={!url.trim()} onClick={() => generate().catch(() => undefined)}>
            {t('messages.subscribe.generate')}
          </Button>
        )}
        <Button disabled={!hasSecret || busy} onClick={() => test().catch(() => undefined)}>
          {t('messages.subscribe.test')}
        </Button>
      </div>
      <Modal
        open={secret !== null}
        title={t('messages.subscribe.secretModalTitle')}
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        okText={t('messages.subscribe.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
        maskClosable={false}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t('messages.subscribe.secretOnce')} style={{ marginBottom: 16 }} />
        <Typography.Paragraph copyable={{ text: secret ?? '' }} code data-testid="webhook-secret">
          {secret}
        </Typography.Paragraph>
      </Modal>
    </div>
  );
};

/** Spec §2 /account/subscribe */
export const Component = () => (
  <section data-testid="account-subscribe-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
    <SubscriptionPanel />
  </section>
);
