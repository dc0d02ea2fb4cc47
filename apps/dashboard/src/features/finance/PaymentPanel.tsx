import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import QRCode from 'antd/es/qr-code';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { safeExternalUrl } from '../../shared/util/safeUrl.ts';
import { formatMoney } from './money.ts';
import type { PaymentState } from './paymentFlow.ts';

interface PaymentPanelProps {
  state: PaymentState;
  onPay: () => void;
  onFinish: () => void;
  onAnother: () => void;
}

/** What one online recharge shows at each step of paymentFlow. */
export const PaymentPanel = ({ state, onPay, onFinish, onAnother }: PaymentPanelProps) => {
  const { t } = useTranslation();
  if (state.step === 'idle' || state.step === 'done') return null;
  const order = state.order;
  const amount = formatMoney(order.amount);
  const body = (() => {
    switch (state.step) {
      case 'pending':
      case 'preordering':
        return (
          <Space>
            <Spin size="small" />
            {t('finance.balance.preordering')}
          </Space>
        );
      case 'unavailable':
        return (
          <Alert type="warning" showIcon title={t('finance.balance.unavailable')} data-testid="payment-unavailable" />
        );
      case 'failed':
        return (
          <Space direction="vertical">
            <Alert
              type="error"
              showIcon
              title={t('finance.balance.failed', { reason: state.reason })}
              data-testid="payment-failed"
            />
            <Button onClick={onPay}>{t('finance.balance.pay')}</Button>
          </Space>
        );
      case 'showing': {
        const payUrl = state.target.kind === 'link' ? safeExternalUrl(state.target.payUrl) : undefined;
        return (
          <Space direction="vertical" align="center" data-testid="payment-showing">
            {state.target.kind === 'qr' ? (
              <>
                <QRCode value={state.target.codeUrl} size={200} data-testid="payment-qr" />
                {t(state.order.channel === 'alipay' ? 'finance.balance.scanAlipay' : 'finance.balance.scan', {
                  amount,
                })}
              </>
            ) : (
              payUrl && (
                <Button type="primary" href={payUrl} target="_blank" rel="noopener noreferrer">
                  {t('finance.balance.openPay')}
                </Button>
              )
            )}
            <Space>
              <Spin size="small" />
              {t('finance.balance.waiting')}
            </Space>
          </Space>
        );
      }
      case 'expired':
        return (
          <Space direction="vertical">
            <Alert type="info" showIcon title={t('finance.balance.expired')} />
            <Button onClick={onPay}>{t('finance.balance.checkAgain')}</Button>
          </Space>
        );
      case 'paid':
        return (
          <Space direction="vertical">
            <Alert
              type="success"
              showIcon
              data-testid="payment-paid"
              title={t('finance.balance.paid', { amount, balance: formatMoney(order.balance_after ?? 0) })}
            />
            <Button type="primary" onClick={onFinish}>
              {t('finance.balance.finish')}
            </Button>
          </Space>
        );
      case 'closed':
        return <Alert type="info" showIcon title={t('finance.balance.closedOrder')} />;
    }
  })();
  return (
    <div data-testid="payment-panel" style={{ marginTop: 16 }}>
      <Alert
        type="info"
        title={t('finance.balance.pendingTitle', { no: order.out_trade_no })}
        description={t('finance.balance.pendingNote')}
        style={{ marginBottom: 12 }}
        data-testid="payment-pending"
      />
      {body}
      {state.step !== 'showing' && state.step !== 'preordering' && state.step !== 'paid' && (
        <div style={{ marginTop: 12 }}>
          <Button onClick={onAnother}>{t('finance.balance.another')}</Button>
        </div>
      )}
    </div>
  );
};
