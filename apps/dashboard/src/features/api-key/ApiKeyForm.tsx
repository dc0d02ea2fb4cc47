import type { ApiKeyScope } from '@rampart/contracts';
import Form from 'antd/es/form';
import TextArea from 'antd/es/input/TextArea';
import Modal from 'antd/es/modal/Modal';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { allowIpsText, parseAllowIps } from './allowIps.ts';
import type { ApiKey } from './api.ts';

interface Values {
  scope: ApiKeyScope;
  allow_ips?: string;
}

export interface KeySettings {
  scope: ApiKeyScope;
  allow_ips: string[];
}

/** Scope and IP allow list of a new key (`apiKey` null) or of the current one. */
export const ApiKeyForm = ({
  open,
  apiKey,
  onSave,
  onClose,
}: {
  open: boolean;
  apiKey: ApiKey | null;
  onSave: (settings: KeySettings) => Promise<void>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, submitting] = useSubmitting();
  const submit = (values: Values) =>
    submitting(async () => {
      await onSave({ scope: values.scope, allow_ips: parseAllowIps(values.allow_ips ?? '').ips });
      onClose();
    });
  return (
    <Modal
      open={open}
      title={apiKey ? t('apiKey.form.editTitle') : t('apiKey.form.createTitle')}
      okText={apiKey ? t('apiKey.form.save') : t('apiKey.form.create')}
      cancelText={t('apiKey.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ scope: apiKey?.scope ?? 'read', allow_ips: allowIpsText(apiKey?.allow_ips ?? []) }}
        onFinish={submit}
      >
        <Form.Item name="scope" label={t('apiKey.scope')} extra={t('apiKey.form.scopeHelp')}>
          <Radio.Group
            options={[
              { value: 'read', label: t('apiKey.scopeName.read') },
              { value: 'write', label: t('apiKey.scopeName.write') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="allow_ips"
          label={t('apiKey.allowIps')}
          extra={t('apiKey.form.allowIpsHelp')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const { ips, invalid } = parseAllowIps(value ?? '');
                if (invalid) throw new Error(t('apiKey.form.badIp', { entry: invalid }));
                if (ips.length > 100) throw new Error(t('apiKey.form.tooManyIps'));
              },
            },
          ]}
        >
          <TextArea rows={4} placeholder="203.0.113.0/24" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
