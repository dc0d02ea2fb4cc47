import type { UpgradeView, UserPackageView } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal/Modal';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useErrorText } from '../../shared/http/errorText.ts';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { type UpgradeExtendResult, useUserPackageActions } from './api.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { purchaseRefusal } from './purchaseRefusal.ts';
import { RechargeNotice } from './RechargeNotice.tsx';
import { useRefusalWords } from './useRefusalWords.ts';

/** Packs a renewal left behind: they end before the package does. */
export const packsEndingEarly = (userPackage: UserPackageView, upgrades: readonly UpgradeView[]) =>
  upgrades.filter((upgrade) => Date.parse(upgrade.end_at) < Date.parse(userPackage.end_at));

/**
 * "Extend packs to the package's end" on an active package whose upgrade packs end before it: quotes
 * the price first, then pays it from the balance once confirmed (the server refuses a price that changed).
 */
export const ExtendPacks = ({
  userPackage,
  upgrades,
}: {
  userPackage: UserPackageView;
  upgrades: readonly UpgradeView[];
}) => {
  const { t, i18n } = useLocales(USER_PACKAGES_LOCALES);
  const feedback = useFeedback();
  const words = useRefusalWords();
  const errorText = useErrorText();
  const actions = useUserPackageActions();
  const [quoting, setQuoting] = useState(false);
  const [quote, setQuote] = useState<UpgradeExtendResult>();
  const [paying, setPaying] = useState(false);
  const [refusal, setRefusal] = useState<{ at: 'balance' | 'other'; text: string }>();
  if (userPackage.state !== 'active' || packsEndingEarly(userPackage, upgrades).length === 0) return null;

  const ask = async () => {
    setQuoting(true);
    setRefusal(undefined);
    try {
      setQuote(await actions.quoteExtendUpgrades(userPackage.id));
    } catch {
      // The client showed why.
    } finally {
      setQuoting(false);
    }
  };

  const pay = async (price: number) => {
    setPaying(true);
    setRefusal(undefined);
    try {
      await actions.extendUpgrades(userPackage.id, price, {
        onError: (error) => {
          const refused = purchaseRefusal(error, words);
          setRefusal({ at: refused.at === 'balance' ? 'balance' : 'other', text: errorText(error) });
        },
      });
      feedback.success(t('userPackages.extend.done'));
      setQuote(undefined);
    } catch {
      // Shown in the dialog.
    } finally {
      setPaying(false);
    }
  };

  const short = quote !== undefined && quote.balance < quote.price;
  return (
    <>
      <Button
        size="small"
        loading={quoting}
        onClick={() => void ask()}
        data-testid={`extend-packs:${userPackage.name}`}
      >
        {t('userPackages.extend.button')}
      </Button>
      {quote && (
        <Modal
          open
          title={t('userPackages.extend.title', { name: userPackage.name })}
          onCancel={() => setQuote(undefined)}
          onOk={() => void pay(quote.price)}
          okText={t('userPackages.extend.pay')}
          okButtonProps={{ disabled: quote.extended === 0 || short }}
          confirmLoading={paying}
          destroyOnHidden
        >
          <Typography.Paragraph type="secondary">{t('userPackages.extend.intro')}</Typography.Paragraph>
          {quote.extended === 0 ? (
            <Alert type="info" showIcon title={t('userPackages.extend.nothing')} />
          ) : (
            <Descriptions
              size="small"
              column={1}
              bordered
              data-testid="extend-quote"
              items={[
                { key: 'packs', label: t('userPackages.extend.packs'), children: quote.extended },
                {
                  key: 'until',
                  label: t('userPackages.extend.until'),
                  children: dateTimeFormat(i18n.language).format(new Date(userPackage.end_at)),
                },
                {
                  key: 'price',
                  label: t('userPackages.quote.amount'),
                  children: <strong data-testid="extend-price">{formatCents(quote.price)}</strong>,
                },
                { key: 'balance', label: t('userPackages.quote.balance'), children: formatCents(quote.balance) },
              ]}
            />
          )}
          {(refusal?.at === 'balance' || (short && !refusal)) && (
            <div style={{ marginTop: 12 }}>
              <RechargeNotice
                text={
                  refusal?.text ??
                  t('userPackages.purchase.short', { missing: formatCents(quote.price - quote.balance) })
                }
              />
            </div>
          )}
          {refusal?.at === 'other' && (
            <Alert type="error" showIcon title={refusal.text} style={{ marginTop: 12 }} data-testid="extend-error" />
          )}
        </Modal>
      )}
    </>
  );
};
