import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { readImpersonation } from './impersonation.ts';
import { USERS_LOCALES } from './locales/bundle.ts';
import { useBackToAdmin } from './useImpersonate.ts';

/** Above every page while an admin is signed in as a user: who, and the way back. */
export const ImpersonationBanner = () => {
  const { t } = useLocales(USERS_LOCALES);
  const back = useBackToAdmin();
  const [leaving, setLeaving] = useState(false);
  const state = readImpersonation();
  if (!state) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="impersonation-banner"
      message={t('users.impersonation.banner', { account: state.account, admin: state.adminUser.username })}
      action={
        <Button
          size="small"
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            back().finally(() => setLeaving(false));
          }}
        >
          {t('users.impersonation.back')}
        </Button>
      }
    />
  );
};
