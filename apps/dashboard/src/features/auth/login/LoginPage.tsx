import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRegisterInfo } from '../api.ts';
import { AuthShell } from '../shell/AuthShell.tsx';
import { LoginForm } from './LoginForm.tsx';

export const Component = () => {
  const { t } = useTranslation();
  const { data: registerInfo } = useRegisterInfo();
  return (
    <AuthShell title={t('auth.login.title')}>
      <LoginForm />
      <div className="rp-auth-links">
        {registerInfo?.open ? <Link to="/register">{t('auth.login.register')}</Link> : <span />}
        <Link to="/forget-password">{t('auth.login.forgetPassword')}</Link>
      </div>
    </AuthShell>
  );
};
