import Alert from 'antd/es/alert';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';

/** Ten one-time codes, shown this once, with one copy button for all of them. */
export const RecoveryCodesList = ({ codes }: { codes: readonly string[] }) => {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="warning" showIcon title={t('twoFactor.recovery.once')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph copyable={{ text: codes.join('\n') }}>{t('twoFactor.recovery.copy')}</Typography.Paragraph>
      <ol data-testid="recovery-codes" style={{ columns: 2, fontFamily: 'monospace', fontSize: 15 }}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
    </>
  );
};
