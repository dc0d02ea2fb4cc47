import type { PriceQuote } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Descriptions from 'antd/es/descriptions';
import Spin from 'antd/es/spin';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { RechargeNotice } from './RechargeNotice.tsx';

interface QuoteSummaryProps {
  quote: PriceQuote | undefined;
  loading: boolean;
  /** The server's refusal of a payment the balance does not cover, in the user's words. */
  shortfall?: string | undefined;
  /** Why the server would not price this choice. */
  problem?: string | undefined;
}

/** The price the server quoted: list price, discount, coupon, what is paid and the balance it comes from. */
export const QuoteSummary = ({ quote, loading, shortfall, problem }: QuoteSummaryProps) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const short = quote && quote.balance < quote.amount;
  return (
    <Spin spinning={loading} delay={200}>
      <div data-testid="quote-summary" aria-busy={loading}>
        {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
        {quote && (
          <Descriptions
            size="small"
            column={1}
            bordered
            items={[
              { key: 'list', label: t('userPackages.quote.listPrice'), children: formatCents(quote.list_price) },
              ...(quote.discount > 0
                ? [
                    {
                      key: 'discount',
                      label: t('userPackages.quote.discount', { percent: quote.discount_percent }),
                      children: `-${formatCents(quote.discount)}`,
                    },
                  ]
                : []),
              ...(quote.coupon
                ? [
                    {
                      key: 'coupon',
                      label: t('userPackages.quote.coupon', { code: quote.coupon }),
                      children: <span data-testid="quote-coupon-off">-{formatCents(quote.coupon_off)}</span>,
                    },
                  ]
                : []),
              {
                key: 'amount',
                label: t('userPackages.quote.amount'),
                children: (
                  <strong data-testid="quote-amount" style={{ fontSize: 16 }}>
                    {formatCents(quote.amount)}
                  </strong>
                ),
              },
              {
                key: 'balance',
                label: t('userPackages.quote.balance'),
                children: <span data-testid="quote-balance">{formatCents(quote.balance)}</span>,
              },
            ]}
          />
        )}
        {(shortfall || short) && (
          <div style={{ marginTop: 12 }}>
            <RechargeNotice
              text={
                shortfall ??
                t('userPackages.purchase.short', { missing: formatCents((quote?.amount ?? 0) - (quote?.balance ?? 0)) })
              }
            />
          </div>
        )}
      </div>
    </Spin>
  );
};
