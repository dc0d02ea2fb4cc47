import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal/Modal';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useTwoFactor, useTwoFactorActions } from './api.ts';
import { EnableTwoFactor } from './EnableTwoFactor.tsx';
import { ProveModal } from './ProveModal.tsx';
import { RecoveryCodesList } from './RecoveryCodesList.tsx';

type Dialog = 'enable' | 'disable' | 'codes' | null;

/** Whether two-factor sign-in is on, and turning it on or off; new recovery codes are shown once. */
export const TwoFactorPanel = () => {
  const { t, i18n } = useTranslation();
  const feedback = useFeedback();
  const status = useTwoFactor();
  const actions = useTwoFactorActions();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);
  if (status.isPending) return <Spin />;
  const current = status.data;
  const enabled = current?.enabled === true;
  return (
    <div data-testid="two-factor-panel" style={{ maxWidth: 640 }}>
      <Typography.Paragraph>{t('twoFactor.intro')}</Typography.Paragraph>
      <Descriptions column={1} bordered size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('twoFactor.state')}>
          <Tag color={enabled ? 'green' : 'default'} data-testid="two-factor-state">
            {enabled ? t('twoFactor.on') : t('twoFactor.off')}
          </Tag>
        </Descriptions.Item>
        {enabled && current?.enabled_at && (
          <Descriptions.Item label={t('twoFactor.since')}>
            {dateTimeFormat(i18n.language).format(new Date(current.enabled_at))}
          </Descriptions.Item>
        )}
        {enabled && (
          <Descriptions.Item label={t('twoFactor.recovery.left')}>{current?.recovery_codes_left}</Descriptions.Item>
        )}
      </Descriptions>
      {enabled ? (
        <div style={{ display: 'flex', gap: 8 }}>
          <Button onClick={() => setDialog('codes')}>{t('twoFactor.recovery.new')}</Button>
          <Button danger onClick={() => setDialog('disable')}>
            {t('twoFactor.disable.button')}
          </Button>
        </div>
      ) : (
        <Button type="primary" onClick={() => setDialog('enable')}>
          {t('twoFactor.enable.button')}
        </Button>
      )}
      <EnableTwoFactor open={dialog === 'enable'} onClose={() => setDialog(null)} />
      <ProveModal
        open={dialog === 'disable'}
        title={t('twoFactor.disable.title')}
        okText={t('twoFactor.disable.button')}
        danger
        onProve={async (proof) => {
          await actions.disable(proof);
          feedback.success(t('twoFactor.disable.done'));
        }}
        onClose={() => setDialog(null)}
      />
      <ProveModal
        open={dialog === 'codes'}
        title={t('twoFactor.recovery.new')}
        okText={t('twoFactor.recovery.make')}
        onProve={async (proof) => setFreshCodes((await actions.newRecoveryCodes(proof)).recovery_codes)}
        onClose={() => setDialog(null)}
      />
      <Modal
        open={freshCodes !== null}
        title={t('twoFactor.recovery.title')}
        onOk={() => setFreshCodes(null)}
        onCancel={() => setFreshCodes(null)}
        okText={t('twoFactor.recovery.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
        maskClosable={false}
        destroyOnHidden
      >
        <RecoveryCodesList codes={freshCodes ?? []} />
      </Modal>
    </div>
  );
};
