import type { Cert } from '@rampart/contracts';
import Progress from 'antd/es/progress';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { stepPercent } from './acmeRequest.ts';

const COLORS = { issued: 'green', issuing: 'processing', failed: 'red' } as const;

/** Issued, issuing (with the step and a bar) or failed (with the master's reason in plain words). */
export const CertStatus = ({ cert }: { cert: Cert }) => {
  const { t } = useTranslation();
  return (
    <div data-testid={`cert-status:${cert.id}`} data-status={cert.status} style={{ maxWidth: 320 }}>
      <Tag color={COLORS[cert.status]}>{t(`certs.status.${cert.status}`)}</Tag>
      {cert.status === 'issuing' && (
        <>
          <span>{t(`certs.step.${cert.progress || 'queued'}`, { defaultValue: cert.progress })}</span>
          <Progress percent={stepPercent(cert.progress)} size="small" showInfo={false} status="active" />
        </>
      )}
      {cert.status === 'failed' && cert.error && (
        <div role="alert" style={{ color: '#cf1322', fontSize: 12, marginTop: 4, wordBreak: 'break-word' }}>
          {cert.error}
        </div>
      )}
    </div>
  );
};
