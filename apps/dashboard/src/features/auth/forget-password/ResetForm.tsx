import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Radio from 'antd/es/radio';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useAuthApi } from '../api.ts';
import { CodeField } from '../code/CodeField.tsx';
import { fieldRules } from '../fieldRules.ts';
import { PasswordFields } from '../password/PasswordFields.tsx';
import { type ResetChannel, type ResetValues, toResetBody } from './resetBody.ts';

const RESET_FORM = 'reset';

/** Reset by email or phone, offering only the channels the server has (GET /v1/common/captcha-type). */
export const ResetForm = ({ channels }: { channels: readonly ResetChannel[] }) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const api = useAuthApi();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const [submitting, setSubmitting] = useState(false);
  const resetBy = Form.useWatch('resetBy', form) ?? channels[0];
  const rules = fieldRules(t);
  const addressLabel = t(`auth.field.${resetBy ?? 'email'}`);

  const send = async () => {
    const channel = form.getFieldValue('resetBy') as ResetChannel;
    const values = await form.validateFields([channel]).catch(() => undefined);
    const address = values?.[channel]?.trim();
    if (!address) return undefined;
    return channel === 'email' ? api.sendEmailCode(address, 'reset') : api.sendPhoneCode(address, 'reset');
  };

  const onFinish = async (values: ResetValues) => {
    setSubmitting(true);
    try {
      await api.resetPassword(toResetBody(values));
      feedback.success(t('auth.reset.success'));
      navigate('/login', { replace: true });
    } catch {
      // the HTTP client has shown the failure
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} name={RESET_FORM} layout="vertical" onFinish={onFinish} initialValues={{ resetBy: channels[0] }}>
      <Form.Item name="resetBy" label={t('auth.reset.by')}>
        <Radio.Group optionType="button">
          {channels.map((channel) => (
            <Radio.Button key={channel} value={channel}>
              {t(channel === 'email' ? 'auth.reset.byEmail' : 'auth.reset.byPhone')}
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      {resetBy && (
        <Form.Item
          key={resetBy}
          name={resetBy}
          label={addressLabel}
          rules={[{ required: true, message: t('auth.field.required', { field: addressLabel }) }, rules[resetBy]]}
        >
          <Input type={resetBy === 'email' ? 'email' : 'tel'} autoComplete={resetBy === 'email' ? 'email' : 'tel'} />
        </Form.Item>
      )}
      <CodeField
        formName={RESET_FORM}
        name="code"
        label={t(resetBy === 'phone' ? 'auth.code.phone' : 'auth.code.email')}
        rules={[{ required: true, message: t('auth.code.required') }, rules.code]}
        send={send}
        sendTestId="send-reset-code"
      />
      <PasswordFields label={t('auth.password.newLabel')} />
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {t('auth.reset.submit')}
      </Button>
    </Form>
  );
};
