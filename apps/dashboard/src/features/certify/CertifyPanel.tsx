import Alert from 'antd/es/alert';
import Descriptions from 'antd/es/descriptions';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useCertifications } from './api.ts';
import { CertifyForm } from './CertifyForm.tsx';
import { CertifyStateTag } from './CertifyStateTag.tsx';

/** The user's newest request and its review; the form while there is none or it was rejected. */
export const CertifyPanel = () => {
  const { t, i18n } = useTranslation();
  const requests = useCertifications({ page: 1, limit: 1 });
  if (requests.isPending) return <Spin />;
  const latest = requests.data?.list[0];
  return (
    <div data-testid="certify-panel" style={{ maxWidth: 640 }}>
      {latest && (
        <Descriptions column={1} bordered size="small" style={{ marginBottom: 24 }}>
          <Descriptions.Item label={t('certify.state')}>
            <CertifyStateTag state={latest.state} />
          </Descriptions.Item>
          <Descriptions.Item label={t('certify.type')}>{t(`certify.typeName.${latest.type}`)}</Descriptions.Item>
          <Descriptions.Item label={t('certify.name')}>{latest.name}</Descriptions.Item>
          <Descriptions.Item label={t('certify.idNumber')}>{latest.id_number}</Descriptions.Item>
          <Descriptions.Item label={t('certify.submitted')}>
            {dateTimeFormat(i18n.language).format(new Date(latest.created_at))}
          </Descriptions.Item>
          {latest.state === 'rejected' && (
            <Descriptions.Item label={t('certify.reason')}>{latest.reason}</Descriptions.Item>
          )}
        </Descriptions>
      )}
      {latest?.state === 'pending' && <Alert type="info" showIcon title={t('certify.pendingNote')} />}
      {latest?.state === 'approved' && <Alert type="success" showIcon title={t('certify.approvedNote')} />}
      {(!latest || latest.state === 'rejected') && (
        <>
          {latest && <Alert type="warning" showIcon title={t('certify.again')} style={{ marginBottom: 16 }} />}
          <CertifyForm />
        </>
      )}
    </div>
  );
};
