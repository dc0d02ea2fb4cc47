import Statistic from 'antd/es/statistic';
import { Link } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useFreshBalance } from './api.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { formatMoney } from './money.ts';
import { OrderTable } from './OrderTable.tsx';
import { PaymentPanel } from './PaymentPanel.tsx';
import { RechargeForm } from './RechargeForm.tsx';
import { useOrderList } from './useOrderList.ts';
import { usePayment } from './usePayment.ts';

const PANEL = { background: '#fff', padding: 24, borderRadius: 8, marginBottom: 16 } as const;
const RECHARGES = { kind: 'recharge' } as const;

/** Spec §2 /account/balance: the balance, an online recharge through WeChat Pay or Alipay, and the last recharges. */
export const Component = () => {
  const { t } = useLocales(FINANCE_LOCALES);
  const { balance } = useFreshBalance();
  const payment = usePayment();
  const recharges = useOrderList(RECHARGES);
  const busy = payment.state.step !== 'idle' && payment.state.step !== 'done';
  return (
    <section data-testid="account-balance-page">
      <div style={PANEL}>
        <Statistic title={t('finance.balance.current')} value={formatMoney(balance)} data-testid="balance-current" />
      </div>
      <div style={PANEL}>
        <h3 style={{ marginTop: 0 }}>{t('finance.balance.recharge')}</h3>
        {busy ? (
          <PaymentPanel
            state={payment.state}
            onPay={() =>
              payment.state.step !== 'idle' && payment.state.step !== 'done' && payment.pay(payment.state.order)
            }
            onFinish={payment.finish}
            onAnother={payment.reset}
          />
        ) : (
          <RechargeForm onOpened={payment.open} />
        )}
      </div>
      <div style={PANEL}>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
          <h3 style={{ margin: 0 }}>{t('finance.balance.recent')}</h3>
          <Link to="/account/order">{t('finance.balance.allOrders')}</Link>
        </div>
        <OrderTable {...recharges.table} testId="balance-recharges" />
      </div>
    </section>
  );
};
