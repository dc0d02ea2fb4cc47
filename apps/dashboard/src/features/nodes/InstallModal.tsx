import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Typography from 'antd/es/typography';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useInstallToken } from './api.ts';
import { NODES_LOCALES } from './locales/bundle.ts';

/** The command that installs an agent on a new Debian or Ubuntu server, with the cluster's install token. */
export const installCommand = (masterUrl: string, token: string) =>
  `curl -fsSL ${masterUrl}/agent/install.sh | sudo bash -s -- --token ${token}`;

export const InstallModal = ({ onClose }: { onClose: () => void }) => {
  const { t } = useLocales(NODES_LOCALES);
  const { token, rotate } = useInstallToken(true);
  return (
    <Modal
      open
      title={t('nodes.install.title')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('nodes.install.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
      width={720}
    >
      <p>{t('nodes.install.text')}</p>
      {token !== undefined && (
        <Typography.Paragraph copyable code data-testid="install-command">
          {installCommand(window.location.origin, token)}
        </Typography.Paragraph>
      )}
      <Popconfirm
        title={t('nodes.install.rotateConfirm')}
        okText={t('nodes.confirm.ok')}
        cancelText={t('nodes.confirm.cancel')}
        onConfirm={() => rotate().catch(() => undefined)}
      >
        <Button data-testid="install-rotate">{t('nodes.install.rotate')}</Button>
      </Popconfirm>
    </Modal>
  );
};
