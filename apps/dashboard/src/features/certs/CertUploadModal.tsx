import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Modal from 'antd/es/modal/Modal';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { edgeRules } from '../sites/edgeRules.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useCertActions } from './api.ts';
import { uploadCertBody } from './certExpiry.ts';

interface CertValues {
  name?: string;
  cert?: string;
  key?: string;
}

const PemFile = ({ label, onText }: { label: string; onText: (text: string) => void }) => (
  <input
    type="file"
    aria-label={label}
    accept=".pem,.crt,.cer,.key,text/plain"
    onChange={(event) => {
      const file = event.target.files?.[0];
      if (file) void file.text().then(onText);
    }}
  />
);

/** Upload a PEM certificate (leaf then chain) and its key; the master checks they match. */
export const CertUploadModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useCertActions();
  const [form] = Form.useForm<CertValues>();
  const [saving, submitting] = useSubmitting();

  const submit = async (values: CertValues) => {
    await submitting(async () => {
      await actions.upload(uploadCertBody(values), { onError: fieldErrorHandler(form, http, ['name', 'cert', 'key']) });
      feedback.success(t('certs.uploaded'));
      form.resetFields();
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('certs.upload')}
      width={720}
      footer={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="cert-upload-submit">
          {t('certs.uploadSubmit')}
        </Button>
      }
    >
      <Form<CertValues> form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('certs.column.name')} rules={edgeRules(t).name}>
          <Input />
        </Form.Item>
        <Form.Item
          name="cert"
          label={t('certs.field.cert')}
          extra={<PemFile label={t('certs.field.certFile')} onText={(cert) => form.setFieldsValue({ cert })} />}
          rules={[{ required: true, max: 65_536, message: t('certs.rule.cert') }]}
        >
          <TextArea rows={6} placeholder="-----BEGIN CERTIFICATE-----" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item
          name="key"
          label={t('certs.field.key')}
          extra={<PemFile label={t('certs.field.keyFile')} onText={(key) => form.setFieldsValue({ key })} />}
          rules={[{ required: true, max: 16_384, message: t('certs.rule.key') }]}
        >
          <TextArea rows={6} placeholder="-----BEGIN PRIVATE KEY-----" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
