import type { UserPackageView } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal/Modal';
import Select from 'antd/es/select';
import Spin from 'antd/es/spin';
import { useEffect, useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useErrorText } from '../../shared/http/errorText.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { usePackageUps, useUserPackageActions } from './api.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { payReadiness } from './payReadiness.ts';
import { purchaseRefusal } from './purchaseRefusal.ts';
import { RechargeNotice } from './RechargeNotice.tsx';
import { addsText, packsFor } from './upgradeText.ts';
import { useLiveQuote } from './useLiveQuote.ts';
import { useRefusalWords } from './useRefusalWords.ts';

interface UpgradeDraft {
  package_up_id: number;
  amount: number;
}

const MAX_PACKS = 1000;

/** Buys upgrade packs for a user package, priced by the day to its end; the price follows the choice. */
export const UpgradeModal = ({ userPackage, onClose }: { userPackage: UserPackageView; onClose: () => void }) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const words = useRefusalWords();
  const errorText = useErrorText();
  const actions = useUserPackageActions();
  const packUps = usePackageUps();
  const packs = packsFor(packUps.data ?? [], userPackage.package_id);
  const [form] = Form.useForm<UpgradeDraft>();
  const [buying, setBuying] = useState(false);
  const [shortfall, setShortfall] = useState<{ text: string; key: string }>();
  const packId = Form.useWatch('package_up_id', form);
  const amount = Form.useWatch('amount', form);
  const pack = packs.find((entry) => entry.id === packId);
  const firstPack = packs[0]?.id;
  // The packs load after the form mounts: the first one is chosen once they are there.
  useEffect(() => {
    if (firstPack !== undefined && form.getFieldValue('package_up_id') === undefined) {
      form.setFieldValue('package_up_id', firstPack);
    }
  }, [firstPack, form]);
  const quotable = pack !== undefined && Number.isInteger(amount) && amount >= 1 && amount <= MAX_PACKS;
  const key = quotable ? `${packId}:${amount}` : null;
  const live = useLiveQuote(key, (signal) =>
    actions.quoteUpgrade(userPackage.id, packId, amount, { signal, silent: true }),
  );

  const readiness = payReadiness(live.quote, live.loading || key === null);
  const buy = async (draft: UpgradeDraft) => {
    if (readiness.kind !== 'ready') return;
    const submitted = `${draft.package_up_id}:${draft.amount}`;
    setBuying(true);
    setShortfall(undefined);
    try {
      await actions.buyUpgrade(userPackage.id, draft.package_up_id, draft.amount, {
        onError: (error) => {
          const refusal = purchaseRefusal(error, words);
          if (refusal.at === 'balance') setShortfall({ text: refusal.text, key: submitted });
          else http.notify(error);
        },
      });
      feedback.success(t('userPackages.upgrade.done'));
      onClose();
    } catch {
      // Shown beside the recharge link or as a popup.
    } finally {
      setBuying(false);
    }
  };

  const quote = live.quote;
  const short = shortfall?.key === key ? shortfall.text : undefined;
  return (
    <Modal
      open
      title={t('userPackages.upgrade.title', { name: userPackage.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('userPackages.upgrade.buy')}
      okButtonProps={{ disabled: packs.length === 0 || readiness.kind !== 'ready' }}
      confirmLoading={buying}
      destroyOnHidden
    >
      {packUps.isSuccess && packs.length === 0 && (
        <Alert type="info" showIcon title={t('userPackages.upgrade.none')} style={{ marginBottom: 16 }} />
      )}
      <Form<UpgradeDraft>
        form={form}
        layout="vertical"
        onFinish={buy}
        initialValues={{ package_up_id: packs[0]?.id, amount: 1 }}
      >
        <Form.Item
          name="package_up_id"
          label={t('userPackages.upgrade.pack')}
          rules={[{ required: true, message: t('userPackages.upgrade.packRule') }]}
        >
          <Select<number>
            aria-label={t('userPackages.upgrade.pack')}
            loading={packUps.isPending}
            options={packs.map((entry) => ({
              value: entry.id,
              label: t('userPackages.upgrade.option', {
                name: entry.name,
                adds: addsText(entry.kind, entry.amount),
                price: formatCents(entry.price_month),
                term: t('userPackages.term.month'),
              }),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('userPackages.upgrade.amount')}
          rules={[
            { required: true, message: t('userPackages.upgrade.amountRule') },
            { type: 'integer', min: 1, max: MAX_PACKS, message: t('userPackages.upgrade.amountRule') },
          ]}
        >
          <InputNumber<number>
            aria-label={t('userPackages.upgrade.amount')}
            min={1}
            max={MAX_PACKS}
            precision={0}
            style={{ width: 160 }}
          />
        </Form.Item>
      </Form>
      <Spin spinning={live.loading} delay={200}>
        <div data-testid="upgrade-quote" aria-busy={live.loading}>
          {live.error && <Alert type="error" showIcon title={errorText(live.error)} />}
          {quote && pack && (
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                {
                  key: 'adds',
                  label: t('userPackages.upgrade.adds'),
                  children: addsText(pack.kind, pack.amount * quote.amount),
                },
                { key: 'days', label: t('userPackages.upgrade.days'), children: quote.days },
                {
                  key: 'price',
                  label: t('userPackages.quote.amount'),
                  children: <strong data-testid="upgrade-price">{formatCents(quote.price)}</strong>,
                },
                { key: 'balance', label: t('userPackages.quote.balance'), children: formatCents(quote.balance) },
              ]}
            />
          )}
          {(short || (quote && quote.balance < quote.price)) && (
            <div style={{ marginTop: 12 }}>
              <RechargeNotice
                text={
                  short ??
                  t('userPackages.purchase.short', {
                    missing: formatCents((quote?.price ?? 0) - (quote?.balance ?? 0)),
                  })
                }
              />
            </div>
          )}
        </div>
      </Spin>
    </Modal>
  );
};
