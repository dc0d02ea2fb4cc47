import Tabs from 'antd/es/tabs';
import { useSearchParams } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { AUTH_LOCALES } from '../auth/locales/bundle.ts';
import { CertifyPanel } from '../certify/CertifyPanel.tsx';
import { CERTIFY_LOCALES } from '../certify/locales/bundle.ts';
import { TWO_FACTOR_LOCALES } from '../two-factor/locales/bundle.ts';
import { TwoFactorPanel } from '../two-factor/TwoFactorPanel.tsx';
import { ACCOUNT_USER_LOCALES } from './locales/bundle.ts';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';

const TABS = ['profile', 'password', 'two-factor', 'certify'] as const;
type TabKey = (typeof TABS)[number];
const isTab = (value: string | null): value is TabKey => TABS.includes(value as TabKey);

/** Spec §2 /account/user: the user's own profile, password, two-factor sign-in and certification. */
export const Component = () => {
  const { t } = useLocales(ACCOUNT_USER_LOCALES, AUTH_LOCALES, TWO_FACTOR_LOCALES, CERTIFY_LOCALES);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const active: TabKey = isTab(requested) ? requested : 'profile';
  return (
    <section data-testid="account-user-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        activeKey={active}
        onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'profile', label: t('accountUser.tab.profile'), children: <ProfileForm /> },
          { key: 'password', label: t('accountUser.tab.password'), children: <PasswordForm /> },
          { key: 'two-factor', label: t('accountUser.tab.twoFactor'), children: <TwoFactorPanel /> },
          { key: 'certify', label: t('accountUser.tab.certify'), children: <CertifyPanel /> },
        ]}
      />
    </section>
  );
};
