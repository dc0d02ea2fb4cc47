import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PAYMENT_LOCALES } from './locales/bundle.ts';
import { PaymentProviderForm } from './PaymentProviderForm.tsx';

/** The "Payment" tab of /sys/setting: WeChat Pay and Alipay, each its own card saved on its own. */
export const PaymentSettingsTab = () => {
  useLocales(PAYMENT_LOCALES);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="payment-settings">
      <PaymentProviderForm provider="wxpay" />
      <PaymentProviderForm provider="alipay" />
    </div>
  );
};

/** The tab's entry for the settings page's Tabs; its label needs the payment strings loaded. */
export const usePaymentTab = () => {
  const { t } = useLocales(PAYMENT_LOCALES);
  return { key: 'payment', label: t('paymentSettings.tab'), children: <PaymentSettingsTab /> };
};
