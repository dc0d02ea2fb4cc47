import Alert from 'antd/es/alert';
import { Link } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';

/** A balance too short for a payment: why, and where to recharge. */
export const RechargeNotice = ({ text }: { text: string }) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="balance-short"
      title={text}
      action={
        <Link to="/account/balance" data-testid="recharge-link">
          {t('userPackages.purchase.recharge')}
        </Link>
      }
    />
  );
};
