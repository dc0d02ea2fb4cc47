import { Link } from 'react-router';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { LoginAnnouncements } from '../../announcements/LoginAnnouncements.tsx';
import { useRegisterInfo } from '../api.ts';
import { AUTH_LOCALES } from '../locales/bundle.ts';
import { AuthShell } from '../shell/AuthShell.tsx';
import { LoginForm } from './LoginForm.tsx';

export const Component = () => {
  const { t } = useLocales(AUTH_LOCALES);
  const { data: registerInfo } = useRegisterInfo();
  return (
    <AuthShell title={t('auth.login.title')}>
      <LoginAnnouncements />
      <LoginForm />
      <div className="rp-auth-links">
        {registerInfo?.open ? <Link to="/register">{t('auth.login.register')}</Link> : <span />}
        <Link to="/forget-password">{t('auth.login.forgetPassword')}</Link>
      </div>
    </AuthShell>
  );
};
