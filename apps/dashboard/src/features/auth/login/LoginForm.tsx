import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { REDIRECT_PARAM, safeRedirect } from '../../../app/navigation.ts';
import type { ApiError } from '../../../shared/http/apiError.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { landingPath, useSession } from '../../../shared/session/session.ts';
import { useAuthApi } from '../api.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { useImageCaptcha } from './useImageCaptcha.ts';

interface LoginValues {
  account: string;
  password: string;
  code?: string;
}

const CAPTCHA_ERRORS = new Set(['captcha_required', 'captcha_invalid']);

export const LoginForm = () => {
  const { t } = useTranslation();
  const http = useHttp();
  const api = useAuthApi();
  const [form] = Form.useForm<LoginValues>();
  const captcha = useImageCaptcha();
  const signIn = useSession((state) => state.signIn);
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);

  /** Asks whether this account (or this client) must solve a captcha; shows it when so. */
  const checkPolicy = async (account: string | undefined): Promise<boolean> => {
    if (!account || captcha.isRequired()) return captcha.isRequired();
    try {
      const policy = await api.loginPolicy(account, { onError: () => undefined });
      if (policy.captcha_required) await captcha.require();
    } catch {
      // advisory: the login call itself still says when a captcha is needed
    }
    return captcha.isRequired();
  };

  const onLoginError = (error: ApiError, account: string) => {
    http.notify(error);
    form.setFieldValue('code', '');
    if (CAPTCHA_ERRORS.has(error.code)) {
      void (captcha.isRequired() ? captcha.refresh() : captcha.require());
    } else if (captcha.isRequired()) {
      void captcha.refresh();
    } else {
      void checkPolicy(account);
    }
  };

  const onFinish = async ({ account, password, code }: LoginValues) => {
    setSubmitting(true);
    try {
      const needsCaptcha = await checkPolicy(account);
      if (needsCaptcha && !code) {
        await form.validateFields(['code']).catch(() => undefined);
        return;
      }
      const user = await api.login(
        { account, password, captcha: needsCaptcha ? captcha.currentId() : undefined, code },
        { onError: (error) => onLoginError(error, account) },
      );
      signIn(user);
      navigate(safeRedirect(searchParams.get(REDIRECT_PARAM)) ?? landingPath(user), { replace: true });
    } catch {
      // shown by onLoginError
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} name="login" layout="vertical" onFinish={onFinish} requiredMark={false}>
      <Form.Item
        name="account"
        label={t('auth.login.account')}
        rules={[{ required: true, whitespace: true, message: t('auth.login.accountRequired') }]}
      >
        <Input
          placeholder={t('auth.login.accountPlaceholder')}
          autoComplete="username"
          onBlur={() => void checkPolicy(form.getFieldValue('account'))}
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('auth.login.password')}
        rules={[{ required: true, message: t('auth.login.passwordRequired') }]}
      >
        <Password autoComplete="current-password" />
      </Form.Item>
      {captcha.required && <CaptchaField image={captcha.image} onRefresh={() => void captcha.refresh()} />}
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {t('auth.login.submit')}
      </Button>
    </Form>
  );
};
