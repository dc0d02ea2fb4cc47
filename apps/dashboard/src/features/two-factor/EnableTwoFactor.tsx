import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import Modal from 'antd/es/modal/Modal';
import QRCode from 'antd/es/qr-code';
import Steps from 'antd/es/steps';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { type TwoFactorSetup, useTwoFactorActions } from './api.ts';
import { RecoveryCodesList } from './RecoveryCodesList.tsx';

type Step = { at: 'password' } | { at: 'scan'; setup: TwoFactorSetup } | { at: 'codes'; codes: string[] };

const STEP_INDEX = { password: 0, scan: 1, codes: 2 } as const;

/** The password, then the QR code and secret with a confirming code, then the recovery codes, once. */
export const EnableTwoFactor = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const actions = useTwoFactorActions();
  const [step, setStep] = useState<Step>({ at: 'password' });
  const [saving, submitting] = useSubmitting();
  const [form] = Form.useForm<{ password?: string; code?: string }>();
  const close = () => {
    setStep({ at: 'password' });
    form.resetFields();
    onClose();
  };
  const next = (values: { password?: string; code?: string }) =>
    submitting(async () => {
      if (step.at === 'password') setStep({ at: 'scan', setup: await actions.start(values.password ?? '') });
      else if (step.at === 'scan')
        setStep({ at: 'codes', codes: (await actions.confirm(values.code ?? '')).recovery_codes });
    });

  return (
    <Modal
      open={open}
      title={t('twoFactor.enable.title')}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        step.at === 'codes' ? (
          <Button type="primary" onClick={close}>
            {t('twoFactor.recovery.done')}
          </Button>
        ) : (
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            {step.at === 'password' ? t('twoFactor.enable.next') : t('twoFactor.enable.confirm')}
          </Button>
        )
      }
    >
      <Steps
        size="small"
        current={STEP_INDEX[step.at]}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('twoFactor.enable.stepPassword') },
          { title: t('twoFactor.enable.stepScan') },
          { title: t('twoFactor.enable.stepCodes') },
        ]}
      />
      {step.at === 'codes' ? (
        <RecoveryCodesList codes={step.codes} />
      ) : (
        <Form form={form} name="two-factor-enable" layout="vertical" onFinish={next}>
          {step.at === 'password' ? (
            <Form.Item
              name="password"
              label={t('twoFactor.password')}
              rules={[{ required: true, message: t('twoFactor.passwordRequired') }]}
            >
              <Password autoComplete="current-password" />
            </Form.Item>
          ) : (
            <>
              <Typography.Paragraph>{t('twoFactor.enable.scan')}</Typography.Paragraph>
              <div style={{ display: 'flex', justifyContent: 'center', marginBottom: 16 }}>
                <QRCode value={step.setup.otpauth_uri} size={184} data-testid="two-factor-qr" />
              </div>
              <Typography.Paragraph>
                {t('twoFactor.enable.manual')}{' '}
                <Typography.Text code copyable data-testid="two-factor-secret">
                  {step.setup.secret}
                </Typography.Text>
              </Typography.Paragraph>
              <Form.Item
                name="code"
                label={t('twoFactor.enable.code')}
                rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t('twoFactor.enable.codeRule') }]}
              >
                <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
              </Form.Item>
            </>
          )}
        </Form>
      )}
    </Modal>
  );
};
