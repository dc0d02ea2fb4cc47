import { USER_TYPE } from '@rampart/contracts';
import Button from 'antd/es/button';
import { useNavigate } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USERS_LOCALES } from '../users/locales/bundle.ts';
import { permissionLabel } from '../users/permissionLabel.ts';
import type { ForbiddenReason } from './forbiddenReason.ts';
import { ERRORS_LOCALES } from './locales/bundle.ts';

/** Which account type the refused page is for, or the permission it needs. */
export const ForbiddenReasonText = ({ reason }: { reason: ForbiddenReason }) => {
  const { t } = useLocales(ERRORS_LOCALES, USERS_LOCALES);
  if (reason.kind === 'unknown') return null;
  if (reason.kind === 'permission') {
    const permissions = reason.needs.map((code) => permissionLabel(t, code)).join(t('forbiddenPage.reason.or'));
    return (
      <span style={{ display: 'block', marginTop: 8 }} data-testid="forbidden-reason">
        {t('forbiddenPage.reason.needsPermission', { permissions })}
      </span>
    );
  }
  const forCustomers = reason.pageFor === USER_TYPE.user;
  return (
    <span style={{ display: 'block', marginTop: 8 }} data-testid="forbidden-reason">
      <strong style={{ display: 'block', fontSize: 16, color: 'rgba(0,0,0,0.88)' }}>
        {t(forCustomers ? 'forbiddenPage.reason.forCustomers' : 'forbiddenPage.reason.forAdmins')}
      </strong>
      {t(forCustomers ? 'forbiddenPage.reason.customerHint' : 'forbiddenPage.reason.adminHint')}
    </span>
  );
};

/** Impersonation starts from the user list: the admin picks the customer there. */
export const SignInAsCustomer = () => {
  const { t } = useLocales(ERRORS_LOCALES);
  const navigate = useNavigate();
  return (
    <Button onClick={() => navigate('/sys/user')} data-testid="forbidden-sign-in-as">
      {t('forbiddenPage.reason.signInAsCustomer')}
    </Button>
  );
};
