import { MAX_CENTS } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useOrderActions } from './api.ts';
import { formatMoney, parseMoney } from './money.ts';
import { type PickedUser, UserPicker } from './UserPicker.tsx';

interface AdjustDraft {
  user_id?: number;
  amount: string;
  description: string;
}

interface Adjustment {
  user: PickedUser;
  amount: number;
  description: string;
}

/**
 * An admin credits or (negative) debits a user's balance: POST /v1/user/{uid}/recharge after a
 * confirmation naming the user and the amount. The server refuses a debit below zero with its message.
 */
export const AdjustBalanceModal = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const actions = useOrderActions();
  const [form] = Form.useForm<AdjustDraft>();
  const [user, setUser] = useState<PickedUser>();
  const [pending, setPending] = useState<Adjustment>();
  const [saving, setSaving] = useState(false);

  const apply = async ({ user: target, amount, description }: Adjustment) => {
    setSaving(true);
    try {
      const order = await actions.adjust(target.id, { amount, ...(description && { description }) });
      feedback.success(
        t('finance.adjust.done', { user: target.account, balance: formatMoney(order.balance_after ?? 0) }),
      );
      onClose();
    } catch {
      // The client showed the server's reason (a debit below zero names the balance); the form stays.
      setPending(undefined);
    } finally {
      setSaving(false);
    }
  };

  const amountRule = {
    validator: async (_: unknown, text: string | undefined) => {
      if (!text?.trim()) throw new Error(t('finance.adjust.amountRequired'));
      const cents = parseMoney(text, { signed: true });
      if (cents === null || cents === 0) throw new Error(t('finance.adjust.amountInvalid'));
      if (Math.abs(cents) > MAX_CENTS)
        throw new Error(t('finance.adjust.amountTooLarge', { max: formatMoney(MAX_CENTS) }));
    },
  };

  const amountText = pending ? formatMoney(Math.abs(pending.amount)) : '';
  return (
    <>
      <Modal
        open={!pending}
        onCancel={onClose}
        onOk={() => form.submit()}
        okText={t('finance.adjust.save')}
        title={t('finance.adjust.title')}
        destroyOnHidden={false}
      >
        <Form<AdjustDraft>
          form={form}
          layout="vertical"
          initialValues={{ amount: '', description: '' }}
          onFinish={(draft) => {
            const amount = parseMoney(draft.amount, { signed: true });
            if (!user || amount === null) return;
            setPending({ user, amount, description: draft.description.trim() });
          }}
        >
          <Form.Item
            name="user_id"
            label={t('finance.adjust.user')}
            rules={[{ required: true, message: t('finance.adjust.userRequired') }]}
          >
            <UserPicker ariaLabel={t('finance.adjust.user')} onChange={(_id, picked) => setUser(picked)} />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('finance.adjust.amount')}
            extra={t('finance.adjust.amountHelp')}
            rules={[amountRule]}
          >
            <Input inputMode="decimal" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('finance.adjust.description')}
            extra={t('finance.adjust.descriptionHelp')}
            rules={[{ max: 200 }]}
          >
            <Input.TextArea rows={2} maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
      {pending && (
        <Modal
          open
          title={t('finance.adjust.title')}
          okText={t('finance.list.confirm')}
          cancelText={t('finance.list.cancel')}
          okButtonProps={{ danger: pending.amount < 0, loading: saving }}
          onOk={() => apply(pending)}
          onCancel={() => setPending(undefined)}
        >
          <p data-testid="adjust-confirm">
            {t(pending.amount > 0 ? 'finance.adjust.confirmCredit' : 'finance.adjust.confirmDebit', {
              user: `${pending.user.account} (#${pending.user.id})`,
              amount: amountText,
            })}
          </p>
        </Modal>
      )}
    </>
  );
};
