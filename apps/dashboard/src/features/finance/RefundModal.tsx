import type { OrderRefundBody, OrderView } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import { useRef, useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useErrorText } from '../../shared/http/errorText.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useOrderActions } from './api.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { formatMoney, parseMoney } from './money.ts';
import { orderLabel } from './orderText.ts';

interface RefundDraft {
  amount: string;
  reason: string;
}

/** A paid WeChat Pay or Alipay recharge: what an admin may refund. */
export const isRefundable = (order: OrderView) =>
  order.kind === 'recharge' && order.state === 'paid' && (order.channel === 'wxpay' || order.channel === 'alipay');

/** A refund number the provider refunds once: letters and digits, unguessable, made in the browser. */
const newRefundNo = (orderId: number) => {
  const random = crypto.getRandomValues(new Uint8Array(8));
  return `rf${orderId}-${[...random].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
};

/**
 * An admin refunds part or all of a paid online recharge to the payer (POST /v1/orders/{id}/refunds),
 * after a confirmation naming the amount, the channel and the user whose balance pays it. One refund
 * number per amount: asking again after an unknown outcome refunds once.
 */
export const RefundModal = ({ order, onClose }: { order: OrderView; onClose: () => void }) => {
  const { t } = useLocales(FINANCE_LOCALES);
  const feedback = useFeedback();
  const actions = useOrderActions();
  const [form] = Form.useForm<RefundDraft>();
  const [pending, setPending] = useState<OrderRefundBody>();
  const [saving, setSaving] = useState(false);
  const errorText = useErrorText();
  const [refusal, setRefusal] = useState<string>();
  const number = useRef<{ amount: number; refund_no: string }>(undefined);

  const numbered = (amount: number) => {
    if (number.current?.amount !== amount) number.current = { amount, refund_no: newRefundNo(order.id) };
    return number.current.refund_no;
  };

  const refund = async (body: OrderRefundBody) => {
    setSaving(true);
    setRefusal(undefined);
    try {
      const made = await actions.refund(order.id, body, { onError: (error) => setRefusal(errorText(error)) });
      feedback.success(
        t('finance.refund.done', {
          amount: formatMoney(body.amount),
          balance: formatMoney(made.balance_after ?? 0),
        }),
      );
      onClose();
    } catch {
      // The server's reason is shown above the form, which stays as it was.
      setPending(undefined);
    } finally {
      setSaving(false);
    }
  };

  const amountRule = {
    validator: async (_: unknown, text: string | undefined) => {
      if (!text?.trim()) throw new Error(t('finance.refund.amountRequired'));
      const cents = parseMoney(text);
      if (cents === null || cents <= 0) throw new Error(t('finance.refund.amountInvalid'));
      if (cents > order.amount) throw new Error(t('finance.refund.amountTooLarge', { max: formatMoney(order.amount) }));
    },
  };

  return (
    <>
      <Modal
        open={!pending}
        onCancel={onClose}
        onOk={() => form.submit()}
        okText={t('finance.refund.save')}
        title={t('finance.refund.title', { id: order.id })}
        destroyOnHidden={false}
      >
        {refusal && (
          <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="refund-error" />
        )}
        <p>
          {t('finance.refund.intro', {
            amount: formatMoney(order.amount),
            channel: orderLabel(t, 'channel', order.channel),
            no: order.out_trade_no,
          })}
        </p>
        <Form<RefundDraft>
          form={form}
          layout="vertical"
          initialValues={{ amount: formatMoney(order.amount), reason: '' }}
          onFinish={(draft) => {
            const amount = parseMoney(draft.amount);
            if (amount === null) return;
            const reason = draft.reason.trim();
            setPending({ amount, refund_no: numbered(amount), ...(reason && { reason }) });
          }}
        >
          <Form.Item
            name="amount"
            label={t('finance.refund.amount')}
            extra={t('finance.refund.amountHelp', { max: formatMoney(order.amount) })}
            rules={[amountRule]}
          >
            <Input inputMode="decimal" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('finance.refund.reason')}
            extra={t('finance.refund.reasonHelp')}
            rules={[{ max: 80 }]}
          >
            <Input maxLength={80} />
          </Form.Item>
        </Form>
      </Modal>
      {pending && (
        <Modal
          open
          title={t('finance.refund.title', { id: order.id })}
          okText={t('finance.list.confirm')}
          cancelText={t('finance.list.cancel')}
          okButtonProps={{ danger: true, loading: saving }}
          onOk={() => refund(pending)}
          onCancel={() => setPending(undefined)}
        >
          <p data-testid="refund-confirm">
            {t('finance.refund.confirm', {
              amount: formatMoney(pending.amount),
              channel: orderLabel(t, 'channel', order.channel),
              user: `${order.username} (#${order.user_id})`,
            })}
          </p>
        </Modal>
      )}
    </>
  );
};
