import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import type { Cert } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { SITES_LOCALES } from '../sites/locales/bundle.ts';
import { useReachesEveryUser } from '../sites/useReachesEveryUser.ts';
import { useCertActions, useCertList, useCertUsage } from './api.ts';
import { CertRequestModal } from './CertRequestModal.tsx';
import { CertUploadModal } from './CertUploadModal.tsx';
import { certColumns } from './certColumns.tsx';
import { CERTS_LOCALES } from './locales/bundle.ts';

/** Spec §2 /site/cert: the customer's certificates, uploaded or issued by ACME; the key is never shown. */
export const Component = () => {
  const { t, i18n } = useLocales(CERTS_LOCALES, SITES_LOCALES);
  const admin = useReachesEveryUser();
  const feedback = useFeedback();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [uploading, setUploading] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const certs = useCertList(page.current, page.size);
  const actions = useCertActions();
  const list = certs.data?.list ?? [];
  const usage = useCertUsage(list.map((cert) => cert.id));
  const remove = async (cert: Cert) => {
    await actions.remove(cert.id);
    feedback.success(t('certs.deleted'));
  };
  const reissue = async (cert: Cert) => {
    await actions.reissue(cert.id);
    feedback.success(t('certs.reissued'));
  };
  return (
    <section data-testid="cert-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginBottom: 16 }}>
        <Button type="primary" icon={<SafetyCertificateOutlined />} onClick={() => setRequesting(true)}>
          {t('certs.acme.title')}
        </Button>
        <Button icon={<UploadOutlined />} onClick={() => setUploading(true)}>
          {t('certs.upload')}
        </Button>
      </div>
      <Table<Cert>
        rowKey="id"
        size="middle"
        loading={certs.isPending}
        dataSource={list}
        columns={certColumns(
          t,
          i18n.language,
          Date.now(),
          usage,
          {
            onDownload: (cert) => void actions.download(cert).catch(() => undefined),
            onDelete: (cert) => void remove(cert).catch(() => undefined),
            onReissue: (cert) => void reissue(cert).catch(() => undefined),
          },
          admin,
        )}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: certs.data?.total ?? 0,
          showSizeChanger: true,
        }}
        onChange={(pagination) => setPage({ current: pagination.current ?? 1, size: pagination.pageSize ?? 20 })}
      />
      <CertUploadModal open={uploading} onClose={() => setUploading(false)} />
      <CertRequestModal open={requesting} onClose={() => setRequesting(false)} />
    </section>
  );
};
