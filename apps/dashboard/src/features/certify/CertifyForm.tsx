import { CertifyName, type CertifyType, creditCodeProblem, residentIdProblem } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useCertifyActions } from './api.ts';

interface CertifyValues {
  type: CertifyType;
  name: string;
  id_number: string;
}

/** A person's name and resident ID number, or a company's name and unified social credit code. */
export const CertifyForm = () => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const actions = useCertifyActions();
  const [form] = Form.useForm<CertifyValues>();
  const type = Form.useWatch('type', form) ?? 'personal';
  const [saving, submitting] = useSubmitting();
  const submit = (values: CertifyValues) =>
    submitting(async () => {
      await actions.submit({ ...values, name: values.name.trim(), id_number: values.id_number.trim() });
      feedback.success(t('certify.sent'));
    });
  return (
    <Form<CertifyValues>
      form={form}
      name="certify"
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={{ type: 'personal', name: '', id_number: '' }}
      onFinish={submit}
    >
      <Form.Item name="type" label={t('certify.type')}>
        <Radio.Group
          options={[
            { value: 'personal', label: t('certify.typeName.personal') },
            { value: 'company', label: t('certify.typeName.company') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="name"
        label={type === 'personal' ? t('certify.personName') : t('certify.companyName')}
        rules={[
          { required: true, message: t('certify.nameRequired') },
          {
            min: 2,
            max: 100,
            pattern: new RegExp((CertifyName as { pattern?: string }).pattern ?? ''),
            message: t('certify.nameRule'),
          },
        ]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="id_number"
        label={type === 'personal' ? t('certify.residentId') : t('certify.creditCode')}
        dependencies={['type']}
        rules={[
          { required: true, message: t('certify.idRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value) return;
              const problem = type === 'personal' ? residentIdProblem(value.trim()) : creditCodeProblem(value.trim());
              if (problem)
                throw new Error(type === 'personal' ? t('certify.residentIdRule') : t('certify.creditCodeRule'));
            },
          },
        ]}
      >
        <Input maxLength={18} style={{ fontFamily: 'monospace' }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('certify.submit')}
      </Button>
    </Form>
  );
};
