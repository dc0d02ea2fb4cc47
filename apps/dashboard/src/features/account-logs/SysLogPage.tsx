import Tabs from 'antd/es/tabs';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { LoginLogTable } from './LoginLogTable.tsx';
import { ACCOUNT_LOGS_LOCALES } from './locales/bundle.ts';
import { OpLogTable } from './OpLogTable.tsx';

/** Spec §2 /sys/log (admin:sys): every user's writes through the API, and every sign-in attempt. */
export const Component = () => {
  const { t } = useLocales(ACCOUNT_LOGS_LOCALES);
  return (
    <section data-testid="sys-log-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'op', label: t('accountLogs.tab.op'), children: <OpLogTable everyone /> },
          { key: 'login', label: t('accountLogs.tab.login'), children: <LoginLogTable everyone /> },
        ]}
      />
    </section>
  );
};
