import Alert from 'antd/es/alert';
import Modal from 'antd/es/modal/Modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';

/** The Access-Token value of a new key: shown this once, with a copy button. */
export const SecretModal = ({ token, onClose }: { token: string | null; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Modal
      open={token !== null}
      title={t('apiKey.secret.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('apiKey.secret.done')}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('apiKey.secret.once')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph copyable={{ text: token ?? '' }} code data-testid="api-key-token">
        {token}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('apiKey.secret.usage')}</Typography.Paragraph>
      <Typography.Paragraph code>Access-Token: {'<key_id>.<secret>'}</Typography.Paragraph>
    </Modal>
  );
};
