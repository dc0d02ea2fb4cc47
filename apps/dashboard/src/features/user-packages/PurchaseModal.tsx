import type { PriceQuote, Term } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal/Modal';
import Radio from 'antd/es/radio';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import type { ApiError } from '../../shared/http/apiError.ts';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useErrorText } from '../../shared/http/errorText.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { payReadiness } from './payReadiness.ts';
import { COUPON_PATTERN, isQuotable, MAX_TERMS, MIN_TERMS, type PurchaseDraft } from './pricing.ts';
import { purchaseRefusal } from './purchaseRefusal.ts';
import { purchaseText } from './purchaseResult.ts';
import { QuoteSummary } from './QuoteSummary.tsx';
import { useLiveQuote } from './useLiveQuote.ts';
import { useRefusalWords } from './useRefusalWords.ts';

export interface TermChoice {
  term: Term;
  /** Cents for one term. */
  price: number;
  /** Percent off this term (0: none). */
  percent: number;
}

interface PurchaseModalProps {
  title: string;
  payText: string;
  terms: readonly TermChoice[];
  initialTerm?: Term | undefined;
  quote: (draft: PurchaseDraft, options: RequestOptions) => Promise<PriceQuote>;
  pay: (draft: PurchaseDraft, options: RequestOptions) => Promise<unknown>;
  onPaid: () => void;
  onClose: () => void;
}

/**
 * Term, number of terms and coupon with a live price from the server (discount and coupon applied),
 * then payment from the balance; shared by the checkout and the renewal.
 */
export const PurchaseModal = ({
  title,
  payText,
  terms,
  initialTerm,
  quote,
  pay,
  onPaid,
  onClose,
}: PurchaseModalProps) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const words = useRefusalWords();
  const errorText = useErrorText();
  const [form] = Form.useForm<PurchaseDraft>();
  const [paying, setPaying] = useState(false);
  const [payRefusal, setPayRefusal] = useState<{ at: 'coupon' | 'balance'; text: string; key: string }>();
  const watched = Form.useWatch([], form) as Partial<PurchaseDraft> | undefined;
  const draft = watched && isQuotable(watched) ? watched : null;
  const key = draft ? JSON.stringify([draft.term, draft.terms, draft.coupon.trim()]) : null;
  const live = useLiveQuote(key, (signal) =>
    draft ? quote(draft, { signal, silent: true }) : Promise.reject(new Error('nothing to quote')),
  );
  const liveRefusal = live.error ? purchaseRefusal(live.error, words) : undefined;
  const readiness = payReadiness(live.quote, live.loading || key === null);
  // A refusal of the payment belongs to the draft it was made for; any change clears it.
  const paid = payRefusal?.key === key ? payRefusal : undefined;
  const couponError = paid?.at === 'coupon' ? paid.text : liveRefusal?.at === 'coupon' ? liveRefusal.text : undefined;
  // After a 402 for this choice the same payment would fail again: it waits for a change or a recharge.
  const canPay = readiness.kind === 'ready' && paid?.at !== 'balance';

  const submit = async (values: PurchaseDraft) => {
    // Only a price quoted for this very choice and covered by the balance is paid: never a sure 402.
    if (!canPay) return;
    const submitted = JSON.stringify([values.term, values.terms, values.coupon.trim()]);
    setPaying(true);
    setPayRefusal(undefined);
    try {
      const answer = await pay(values, {
        onError: (error: ApiError) => {
          const refusal = purchaseRefusal(error, words);
          if (refusal.at === 'popup') http.notify(refusal.error);
          else setPayRefusal({ ...refusal, key: submitted });
        },
      });
      feedback.success(purchaseText(t, answer));
      onPaid();
    } catch {
      // Shown at the coupon, beside the recharge link, or as a popup.
    } finally {
      setPaying(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={payText}
      okButtonProps={{ disabled: terms.length === 0 || !canPay }}
      confirmLoading={paying}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          <CancelBtn />
          {/* Below the button: above it, the tooltip would cover the notice's Recharge link. */}
          <Tooltip
            placement="bottom"
            title={
              readiness.kind === 'short'
                ? t('userPackages.purchase.short', { missing: formatCents(readiness.missing) })
                : undefined
            }
          >
            <span style={{ display: 'inline-block', marginInlineStart: 8 }}>
              <OkBtn />
            </span>
          </Tooltip>
        </>
      )}
      destroyOnHidden
    >
      <Form<PurchaseDraft>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ term: initialTerm ?? terms[0]?.term, terms: 1, coupon: '' }}
      >
        <Form.Item name="term" label={t('userPackages.purchase.term')} rules={[{ required: true }]}>
          <Radio.Group aria-label={t('userPackages.purchase.term')}>
            {terms.map((choice) => (
              <Radio key={choice.term} value={choice.term} data-testid={`purchase-term:${choice.term}`}>
                {t(`userPackages.term.${choice.term}`)} {formatCents(choice.price)}
                {choice.percent > 0 && (
                  <Tag color="red" style={{ marginInlineStart: 6 }}>
                    -{choice.percent}%
                  </Tag>
                )}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="terms"
          label={t('userPackages.purchase.terms')}
          rules={[
            { required: true, message: t('userPackages.purchase.termsRule') },
            { type: 'integer', min: MIN_TERMS, max: MAX_TERMS, message: t('userPackages.purchase.termsRule') },
          ]}
        >
          <InputNumber<number>
            aria-label={t('userPackages.purchase.terms')}
            min={MIN_TERMS}
            max={MAX_TERMS}
            precision={0}
            style={{ width: 160 }}
          />
        </Form.Item>
        <Form.Item
          name="coupon"
          label={t('userPackages.purchase.coupon')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                const code = value?.trim() ?? '';
                if (code !== '' && !COUPON_PATTERN.test(code)) throw new Error(t('userPackages.purchase.couponRule'));
              },
            },
          ]}
          {...(couponError && { validateStatus: 'error' as const, help: couponError })}
        >
          <Input autoComplete="off" placeholder={t('userPackages.purchase.couponPlaceholder')} />
        </Form.Item>
      </Form>
      <QuoteSummary
        quote={live.quote}
        loading={live.loading}
        shortfall={paid?.at === 'balance' ? paid.text : undefined}
        problem={liveRefusal?.at === 'popup' ? errorText(liveRefusal.error) : undefined}
      />
    </Modal>
  );
};
