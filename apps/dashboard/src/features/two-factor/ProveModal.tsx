import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import Modal from 'antd/es/modal/Modal';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import type { TwoFactorProofBody } from './api.ts';
import { proofOf } from './proof.ts';

interface ProofValues {
  by: 'code' | 'password';
  value: string;
}

/** A current code (or a recovery code) or the password, for turning it off or new recovery codes. */
export const ProveModal = ({
  open,
  title,
  okText,
  danger,
  onProve,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  danger?: boolean;
  onProve: (proof: TwoFactorProofBody) => Promise<void>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProofValues>();
  const by = Form.useWatch('by', form) ?? 'code';
  const [saving, submitting] = useSubmitting();
  const submit = (values: ProofValues) =>
    submitting(async () => {
      await onProve(proofOf(values.by, values.value));
      onClose();
    });
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('twoFactor.cancel')}
      okButtonProps={{ danger }}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<ProofValues>
        form={form}
        name="two-factor-proof"
        layout="vertical"
        initialValues={{ by: 'code', value: '' }}
        onFinish={submit}
      >
        <Form.Item name="by" label={t('twoFactor.prove.by')}>
          <Radio.Group
            options={[
              { value: 'code', label: t('twoFactor.prove.code') },
              { value: 'password', label: t('twoFactor.password') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="value"
          label={by === 'code' ? t('twoFactor.prove.codeLabel') : t('twoFactor.password')}
          rules={[{ required: true, message: t('twoFactor.prove.required') }]}
        >
          {by === 'code' ? <Input autoComplete="one-time-code" /> : <Password autoComplete="current-password" />}
        </Form.Item>
      </Form>
    </Modal>
  );
};
