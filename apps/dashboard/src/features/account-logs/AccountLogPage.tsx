import Tabs from 'antd/es/tabs';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { LoginLogTable } from './LoginLogTable.tsx';
import { ACCOUNT_LOGS_LOCALES } from './locales/bundle.ts';
import { OpLogTable } from './OpLogTable.tsx';

/** Spec §2 /account/log: the user's own sign-ins and their own writes through the API. */
export const Component = () => {
  const { t } = useLocales(ACCOUNT_LOGS_LOCALES);
  return (
    <section data-testid="account-log-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'login', label: t('accountLogs.tab.login'), children: <LoginLogTable everyone={false} /> },
          { key: 'mine', label: t('accountLogs.tab.mine'), children: <OpLogTable everyone={false} /> },
        ]}
      />
    </section>
  );
};
