import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import Alert from 'antd/es/alert';
import Spin from 'antd/es/spin';
import Statistic from 'antd/es/statistic';
import { Link, useLocation } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useFreshBalance, usePaymentChannels } from './api.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { formatMoney } from './money.ts';
import { OrderTable } from './OrderTable.tsx';
import { PaymentPanel } from './PaymentPanel.tsx';
import { RechargeForm } from './RechargeForm.tsx';
import { backTarget } from './rechargeBack.ts';
import { useOrderList } from './useOrderList.ts';
import { usePayment } from './usePayment.ts';

const PANEL = { background: '#fff', padding: 24, borderRadius: 8, marginBottom: 16 } as const;
const RECHARGES = { kind: 'recharge' } as const;

/**
 * Spec §2 /account/balance: the balance, an online recharge through the channels that are set up,
 * and the last recharges; `?back=` leads to the page the customer came to recharge from.
 */
export const Component = () => {
  const { t } = useLocales(FINANCE_LOCALES);
  const location = useLocation();
  const back = backTarget(location.search);
  const { balance } = useFreshBalance();
  const channels = usePaymentChannels();
  const payment = usePayment();
  const recharges = useOrderList(RECHARGES);
  const busy = payment.state.step !== 'idle' && payment.state.step !== 'done';
  const recharge = () => {
    if (busy) {
      return (
        <PaymentPanel
          state={payment.state}
          onPay={() =>
            payment.state.step !== 'idle' && payment.state.step !== 'done' && payment.pay(payment.state.order)
          }
          onFinish={payment.finish}
          onAnother={payment.reset}
        />
      );
    }
    if (channels.isPending) return <Spin />;
    // Without a working channel there is no form: no order is opened that nobody can pay.
    if (!channels.data?.length) {
      return <Alert type="info" showIcon title={t('finance.balance.noChannel')} data-testid="recharge-no-channel" />;
    }
    return <RechargeForm channels={channels.data} onOpened={payment.open} />;
  };
  return (
    <section data-testid="account-balance-page">
      {back && (
        <div style={{ marginBottom: 12 }}>
          <Link to={back} data-testid="recharge-back">
            <ArrowLeftOutlined /> {t('finance.balance.back')}
          </Link>
        </div>
      )}
      <div style={PANEL}>
        <Statistic title={t('finance.balance.current')} value={formatMoney(balance)} data-testid="balance-current" />
      </div>
      <div style={PANEL}>
        <h3 style={{ marginTop: 0 }}>{t('finance.balance.recharge')}</h3>
        {recharge()}
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
