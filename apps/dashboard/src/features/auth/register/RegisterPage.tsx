import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { Link } from 'react-router';
import { AntdScope } from '../../../shared/antd/AntdScope.tsx';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { useRegisterInfo } from '../api.ts';
import { AUTH_LOCALES } from '../locales/bundle.ts';
import { AuthShell } from '../shell/AuthShell.tsx';
import { RegisterForm } from './RegisterForm.tsx';

const Page = () => {
  const { t } = useLocales(AUTH_LOCALES);
  const { data: info, isPending } = useRegisterInfo();
  return (
    <AuthShell title={t('auth.register.title')}>
      {isPending && <Spin />}
      {info?.open === false && <Result status="info" title={t('auth.register.closed')} />}
      {info?.open && <RegisterForm info={info} />}
      <div className="rp-auth-links" style={{ justifyContent: 'center' }}>
        <Link to="/login">{t('auth.register.toLogin')}</Link>
      </div>
    </AuthShell>
  );
};

/** antd forms: this page brings antd's configuration with it. */
export const Component = () => (
  <AntdScope>
    <Page />
  </AntdScope>
);
