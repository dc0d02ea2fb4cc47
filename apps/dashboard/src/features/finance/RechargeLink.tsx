import WalletOutlined from '@ant-design/icons/WalletOutlined';
import { Link, useLocation } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { rechargeHref } from './rechargeBack.ts';

/** "Recharge" beside a balance: /account/balance, which offers the way back to this page. */
export const RechargeLink = ({ testId = 'recharge-link' }: { testId?: string }) => {
  const { t } = useLocales(FINANCE_LOCALES);
  const location = useLocation();
  return (
    <Link
      to={rechargeHref(`${location.pathname}${location.search}`)}
      data-testid={testId}
      style={{ whiteSpace: 'nowrap' }}
    >
      <WalletOutlined /> {t('finance.rechargeLink')}
    </Link>
  );
};
