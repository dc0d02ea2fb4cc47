import { MAX_CENTS, type OrderView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PaymentChannel, useOrderActions } from './api.ts';
import { formatMoney, parseMoney } from './money.ts';

interface RechargeDraft {
  amount: string;
  channel: PaymentChannel;
}

interface RechargeFormProps {
  /** The channels that are set up (GET /v1/payment-channels), at least one. */
  channels: readonly PaymentChannel[];
  onOpened: (order: OrderView) => void;
}

/** The amount as money and the provider: POST /v1/orders opens a pending online recharge. */
export const RechargeForm = ({ channels, onOpened }: RechargeFormProps) => {
  const { t } = useTranslation();
  const actions = useOrderActions();
  const [form] = Form.useForm<RechargeDraft>();
  const [saving, setSaving] = useState(false);
  const submit = async (draft: RechargeDraft) => {
    const amount = parseMoney(draft.amount);
    if (amount === null) return;
    setSaving(true);
    try {
      onOpened(await actions.openRecharge({ amount, channel: draft.channel }));
    } catch {
      // The client showed why.
    } finally {
      setSaving(false);
    }
  };
  const amountRule = {
    validator: async (_: unknown, text: string | undefined) => {
      if (!text?.trim()) throw new Error(t('finance.balance.amountRequired'));
      const cents = parseMoney(text);
      if (cents === null || cents <= 0) throw new Error(t('finance.balance.amountInvalid'));
      if (cents > MAX_CENTS) throw new Error(t('finance.balance.amountTooLarge', { max: formatMoney(MAX_CENTS) }));
    },
  };
  return (
    <Form<RechargeDraft>
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      initialValues={{ amount: '', channel: channels[0] }}
      onFinish={submit}
      data-testid="recharge-form"
    >
      <Form.Item
        name="amount"
        label={t('finance.balance.amount')}
        extra={t('finance.balance.amountHelp')}
        rules={[amountRule]}
      >
        <Input inputMode="decimal" autoComplete="off" />
      </Form.Item>
      <Form.Item name="channel" label={t('finance.balance.channel')}>
        <Radio.Group
          optionType="button"
          options={channels.map((channel) => ({ value: channel, label: t(`finance.channel.${channel}`) }))}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('finance.balance.submit')}
      </Button>
    </Form>
  );
};
