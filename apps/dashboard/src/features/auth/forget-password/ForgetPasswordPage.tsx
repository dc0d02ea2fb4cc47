import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { Link } from 'react-router';
import { AntdScope } from '../../../shared/antd/AntdScope.tsx';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { useCaptchaTypes } from '../api.ts';
import { AUTH_LOCALES } from '../locales/bundle.ts';
import { AuthShell } from '../shell/AuthShell.tsx';
import { ResetForm } from './ResetForm.tsx';

const Page = () => {
  const { t } = useLocales(AUTH_LOCALES);
  const { data: types, isPending } = useCaptchaTypes();
  return (
    <AuthShell title={t('auth.reset.title')}>
      {isPending && <Spin />}
      {types && types.reset.length === 0 && <Result status="info" title={t('auth.reset.unavailable')} />}
      {types && types.reset.length > 0 && <ResetForm channels={types.reset} />}
      <div className="rp-auth-links" style={{ justifyContent: 'center' }}>
        <Link to="/login">{t('auth.reset.toLogin')}</Link>
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
