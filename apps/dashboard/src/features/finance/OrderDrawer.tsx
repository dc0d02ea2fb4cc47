import type { OrderView } from '@rampart/contracts';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';
import { formatMoney } from './money.ts';
import { amountColor, orderDescription, orderLabel, STATE_COLOR, signedMoney } from './orderText.ts';

/** Every field of one order. */
export const OrderDrawer = ({ order, onClose }: { order: OrderView; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const time = (value: string | null) => formatLogTime(value, i18n.language);
  return (
    <Drawer open onClose={onClose} title={t('finance.list.drawerTitle', { id: order.id })} size={520} destroyOnHidden>
      <Descriptions
        bordered
        size="small"
        column={1}
        data-testid="order-details"
        items={[
          { key: 'id', label: t('finance.column.id'), children: order.id },
          { key: 'user', label: t('finance.column.user'), children: `${order.username} (#${order.user_id})` },
          { key: 'kind', label: t('finance.column.kind'), children: orderLabel(t, 'kind', order.kind) },
          { key: 'channel', label: t('finance.column.channel'), children: orderLabel(t, 'channel', order.channel) },
          {
            key: 'state',
            label: t('finance.column.state'),
            children: <Tag color={STATE_COLOR[order.state]}>{orderLabel(t, 'state', order.state)}</Tag>,
          },
          {
            key: 'amount',
            label: t('finance.column.amount'),
            children: <span style={{ color: amountColor(order.amount) }}>{signedMoney(order.amount)}</span>,
          },
          {
            key: 'balance_after',
            label: t('finance.column.balanceAfter'),
            children: order.balance_after === null ? '—' : formatMoney(order.balance_after),
          },
          { key: 'description', label: t('finance.column.description'), children: orderDescription(t, order) || '—' },
          { key: 'out_trade_no', label: t('finance.column.outTradeNo'), children: order.out_trade_no },
          { key: 'provider', label: t('finance.column.providerTxnId'), children: order.provider_txn_id ?? '—' },
          { key: 'coupon', label: t('finance.column.coupon'), children: order.coupon ?? '—' },
          { key: 'package', label: t('finance.column.userPackage'), children: order.user_package_id ?? '—' },
          { key: 'created_at', label: t('finance.column.createdAt'), children: time(order.created_at) },
          { key: 'paid_at', label: t('finance.column.paidAt'), children: time(order.paid_at) },
        ]}
      />
    </Drawer>
  );
};
