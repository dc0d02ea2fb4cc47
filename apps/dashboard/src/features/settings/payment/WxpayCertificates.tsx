import type { WxpayPlatformCert } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useWxpayCertificates, useWxpayCertificatesRefresh } from './api.ts';

const timeOf = (ms: number | null, language: string) => (ms === null ? '—' : new Date(ms).toLocaleString(language));

/**
 * The WeChat Pay platform certificates the master verifies with: serial and validity, downloaded
 * every 12 hours (and when the settings are saved), or refreshed now. Never a key.
 */
export const WxpayCertificates = ({ usesCertificates }: { usesCertificates: boolean }) => {
  const { t, i18n } = useTranslation();
  const feedback = useFeedback();
  const certificates = useWxpayCertificates(usesCertificates);
  const refresh = useWxpayCertificatesRefresh();
  const [refreshing, submitting] = useSubmitting();
  if (!usesCertificates) return null;
  const columns = [
    { title: t('paymentSettings.certs.serial'), dataIndex: 'serial', key: 'serial' },
    {
      title: t('paymentSettings.certs.effective'),
      key: 'effective_at',
      render: (_: unknown, cert: WxpayPlatformCert) => timeOf(cert.effective_at, i18n.language),
    },
    {
      title: t('paymentSettings.certs.expires'),
      key: 'expires_at',
      render: (_: unknown, cert: WxpayPlatformCert) => timeOf(cert.expires_at, i18n.language),
    },
    {
      title: t('paymentSettings.certs.source'),
      key: 'source',
      render: (_: unknown, cert: WxpayPlatformCert) => (
        <Tag color={cert.source === 'downloaded' ? 'green' : 'default'}>
          {t(`paymentSettings.certs.${cert.source}`)}
        </Tag>
      ),
    },
    {
      title: t('paymentSettings.certs.fetched'),
      key: 'fetched_at',
      render: (_: unknown, cert: WxpayPlatformCert) => timeOf(cert.fetched_at, i18n.language),
    },
  ];
  const refreshNow = () =>
    submitting(async () => {
      await refresh();
      feedback.success(t('paymentSettings.certs.refreshed'));
    });
  return (
    <section data-testid="wxpay-certificates" style={{ marginTop: 24 }}>
      <h4>{t('paymentSettings.certs.title')}</h4>
      <p style={{ color: 'rgba(0,0,0,0.65)' }}>{t('paymentSettings.certs.intro')}</p>
      <Table<WxpayPlatformCert>
        rowKey="serial"
        size="small"
        pagination={false}
        loading={certificates.isPending}
        columns={columns}
        dataSource={certificates.data?.list ?? []}
        locale={{ emptyText: t('paymentSettings.certs.none') }}
      />
      <Button style={{ marginTop: 8 }} onClick={() => refreshNow()} loading={refreshing}>
        {t('paymentSettings.certs.refresh')}
      </Button>
    </section>
  );
};
