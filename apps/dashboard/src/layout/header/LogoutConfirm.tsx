import Modal from 'antd/es/modal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface LogoutConfirmProps {
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}

/** Spec §2: 'Logout confirmation', loaded only when the user asks to log out. */
export const LogoutConfirm = ({ onConfirm, onCancel }: LogoutConfirmProps) => {
  const { t } = useTranslation();
  const [leaving, setLeaving] = useState(false);
  return (
    <Modal
      open
      title={t('layout.logout.title')}
      okText={t('layout.logout.ok')}
      cancelText={t('layout.logout.cancel')}
      confirmLoading={leaving}
      onOk={() => {
        setLeaving(true);
        void onConfirm();
      }}
      onCancel={onCancel}
      width={416}
    >
      <p>{t('layout.logout.content')}</p>
    </Modal>
  );
};
