import type { RegisterInfo } from '@rampart/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSession } from '../../../shared/session/session.ts';
import { safeExternalUrl } from '../../../shared/util/safeUrl.ts';
import { useAuthApi } from '../api.ts';
import { fieldRules } from '../fieldRules.ts';
import { PasswordFields } from '../password/PasswordFields.tsx';
import { ContactFields, canSendCode, REGISTER_FORM } from './RegisterFields.tsx';
import { type RegisterValues, toRegisterBody } from './registerBody.ts';

export const RegisterForm = ({ info }: { info: RegisterInfo }) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const api = useAuthApi();
  const [form] = Form.useForm<RegisterValues>();
  const signIn = useSession((state) => state.signIn);
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const rules = fieldRules(t);
  const agreementUrl = safeExternalUrl(info.agreement_url);

  const onFinish = async (values: RegisterValues) => {
    setSubmitting(true);
    try {
      const user = await api.register(toRegisterBody(values));
      signIn(user);
      feedback.success(t('auth.register.success'));
      navigate('/home', { replace: true });
    } catch {
      // the HTTP client has shown the failure
    } finally {
      setSubmitting(false);
    }
  };

  const usernameLabel = t('auth.field.username');
  const qqLabel = t('auth.field.qq');
  return (
    <Form form={form} name={REGISTER_FORM} layout="vertical" onFinish={onFinish}>
      <Form.Item
        name="username"
        label={usernameLabel}
        rules={[{ required: true, message: t('auth.field.required', { field: usernameLabel }) }, rules.username]}
      >
        <Input autoComplete="username" />
      </Form.Item>
      <ContactFields channel="email" requirement={info.fields.email} canSend={canSendCode(info, 'email')} form={form} />
      <ContactFields channel="phone" requirement={info.fields.phone} canSend={canSendCode(info, 'phone')} form={form} />
      <PasswordFields label={t('auth.password.label')} />
      {info.fields.qq !== 'hidden' && (
        <Form.Item
          name="qq"
          label={qqLabel}
          rules={[
            { required: info.fields.qq === 'required', message: t('auth.field.required', { field: qqLabel }) },
            rules.qq,
          ]}
        >
          <Input inputMode="numeric" />
        </Form.Item>
      )}
      <Form.Item
        name="agreement"
        valuePropName="checked"
        rules={[
          {
            validator: (_rule, checked: unknown) =>
              checked === true ? Promise.resolve() : Promise.reject(new Error(t('auth.register.agreementRequired'))),
          },
        ]}
      >
        <Checkbox>
          {agreementUrl ? (
            <Trans
              i18nKey="auth.register.agreementWithLink"
              components={{
                // Not "link": that is a void HTML element, which Trans would leave empty.
                terms: (
                  // biome-ignore lint/a11y/useAnchorContent: Trans fills in the words
                  <a href={agreementUrl} target="_blank" rel="noopener noreferrer" data-testid="agreement-link" />
                ),
              }}
            />
          ) : (
            t('auth.register.agreement')
          )}
        </Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {t('auth.register.submit')}
      </Button>
    </Form>
  );
};
