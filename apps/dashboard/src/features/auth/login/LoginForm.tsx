import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { REDIRECT_PARAM, safeRedirect } from '../../../app/navigation.ts';
import type { ApiError } from '../../../shared/http/apiError.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { landingPath, useSession } from '../../../shared/session/session.ts';
import { useAuthApi } from '../api.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { type LoginErrors, type LoginValues, missingFields } from './loginValues.ts';
import { PlainField } from './PlainField.tsx';
import { useImageCaptcha } from './useImageCaptcha.ts';

const CAPTCHA_ERRORS = new Set(['captcha_required', 'captcha_invalid']);
const REQUIRED_MESSAGE = {
  account: 'auth.login.accountRequired',
  password: 'auth.login.passwordRequired',
  code: 'auth.captcha.required',
  totp: 'auth.twoFactor.required',
} as const;

/** The sign-in form, in plain elements: the login route stays small (no antd Form). */
export const LoginForm = () => {
  const { t } = useTranslation();
  const http = useHttp();
  const api = useAuthApi();
  const captcha = useImageCaptcha();
  const signIn = useSession((state) => state.signIn);
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [values, setValues] = useState<LoginValues>({ account: '', password: '', code: '', totp: '' });
  // The password was right and the account asks for its second factor: the next call sends `code`.
  const [twoFactor, setTwoFactor] = useState(false);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitting, setSubmitting] = useState(false);

  const change = (field: keyof LoginValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    // Another account starts again from its password.
    if (field === 'account') setTwoFactor(false);
  };

  /** Asks whether this account (or this client) must solve a captcha; shows it when so. */
  const checkPolicy = async (account: string): Promise<boolean> => {
    if (!account || captcha.isRequired()) return captcha.isRequired();
    try {
      const policy = await api.loginPolicy(account, { onError: () => undefined });
      if (policy.two_factor_required) setTwoFactor(true);
      else if (policy.captcha_required) await captcha.require();
    } catch {
      // advisory: the login call itself still says when a captcha is needed
    }
    return captcha.isRequired();
  };

  const onLoginError = (error: ApiError, account: string) => {
    // Asked for the second factor: not a failure, the code field appears.
    if (error.code === 'two_factor_required') {
      setTwoFactor(true);
      setValues((current) => ({ ...current, code: '', totp: '' }));
      return;
    }
    http.notify(error);
    setValues((current) => ({ ...current, code: '', totp: '' }));
    if (error.code === 'two_factor_invalid') return;
    setTwoFactor(false);
    if (CAPTCHA_ERRORS.has(error.code)) {
      void (captcha.isRequired() ? captcha.refresh() : captcha.require());
    } else if (captcha.isRequired()) {
      void captcha.refresh();
    } else {
      void checkPolicy(account);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const account = values.account.trim();
    setSubmitting(true);
    try {
      const needsCaptcha = twoFactor ? false : account ? await checkPolicy(account) : captcha.isRequired();
      const missing = missingFields(values, needsCaptcha, twoFactor);
      if (missing.length > 0) {
        setErrors(Object.fromEntries(missing.map((field) => [field, t(REQUIRED_MESSAGE[field])])));
        return;
      }
      const user = await api.login(
        {
          account,
          password: values.password,
          captcha: needsCaptcha ? captcha.currentId() : undefined,
          code: twoFactor ? values.totp.trim() : values.code,
        },
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
    <form name="login" noValidate onSubmit={(event) => void onSubmit(event)}>
      <PlainField
        label={t('auth.login.account')}
        placeholder={t('auth.login.accountPlaceholder')}
        autoComplete="username"
        value={values.account}
        error={errors.account}
        onChange={change('account')}
        onBlur={() => void checkPolicy(values.account.trim())}
      />
      <PlainField
        label={t('auth.login.password')}
        autoComplete="current-password"
        secret
        value={values.password}
        error={errors.password}
        onChange={change('password')}
      />
      {twoFactor && (
        <PlainField
          label={t('auth.twoFactor.label')}
          placeholder={t('auth.twoFactor.placeholder')}
          autoComplete="one-time-code"
          value={values.totp}
          error={errors.totp}
          onChange={change('totp')}
        />
      )}
      {captcha.required && !twoFactor && (
        <CaptchaField
          image={captcha.image}
          value={values.code}
          error={errors.code}
          onChange={change('code')}
          onRefresh={() => void captcha.refresh()}
        />
      )}
      <button type="submit" className="rp-submit" disabled={submitting} aria-busy={submitting}>
        {t('auth.login.submit')}
      </button>
    </form>
  );
};
