import Statistic from 'antd/es/statistic';
import { useTranslation } from 'react-i18next';
import { formatMoney } from './money.ts';

/** The paid credits, debits and their difference over the whole filter (not only the page shown). */
export const OrderTotals = ({ credit, debit }: { credit: number; debit: number }) => {
  const { t } = useTranslation();
  return (
    <div
      style={{ display: 'flex', gap: 48, marginBottom: 16 }}
      data-testid="order-totals"
      title={t('finance.totals.help')}
    >
      <Statistic
        title={t('finance.totals.credit')}
        value={formatMoney(credit)}
        styles={{ content: { color: '#389e0d' } }}
        data-testid="order-totals-credit"
      />
      <Statistic
        title={t('finance.totals.debit')}
        value={formatMoney(debit)}
        styles={{ content: { color: '#cf1322' } }}
        data-testid="order-totals-debit"
      />
      <Statistic title={t('finance.totals.net')} value={formatMoney(credit - debit)} data-testid="order-totals-net" />
    </div>
  );
};
