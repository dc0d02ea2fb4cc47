import type { OrderView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useTotalText } from '../../shared/table/totals.ts';
import { formatLogTime } from '../account-logs/logTime.ts';
import { useOrderActions } from './api.ts';
import { formatMoney } from './money.ts';
import { OrderDrawer } from './OrderDrawer.tsx';
import { amountColor, orderDescription, orderLabel, STATE_COLOR, signedMoney } from './orderText.ts';
import { isRefundable, RefundModal } from './RefundModal.tsx';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;
const CUT = {
  display: 'inline-block',
  maxWidth: 280,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  verticalAlign: 'bottom',
} as const;

interface OrderTableProps {
  orders: readonly OrderView[];
  total: number;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  /** The user column, for the admins' lists of every user. */
  showUser?: boolean;
  /** The Refund action on paid online recharges (admin:finance pages). */
  refunds?: boolean;
  testId: string;
}

/** A page of orders: amount coloured by sign, balance after, a drawer per row, closing a pending one and refunding a paid online recharge. */
export const OrderTable = ({
  orders,
  total,
  loading,
  page,
  pageSize,
  onPage,
  showUser,
  refunds,
  testId,
}: OrderTableProps) => {
  const { t, i18n } = useTranslation();
  const feedback = useFeedback();
  const totalText = useTotalText();
  const actions = useOrderActions();
  const [shown, setShown] = useState<OrderView>();
  const [refunding, setRefunding] = useState<OrderView>();
  const close = async (order: OrderView) => {
    try {
      await actions.close(order.id);
      feedback.success(t('finance.list.closed'));
    } catch {
      // The client showed why.
    }
  };
  const columns: ColumnsType<OrderView> = [
    { key: 'id', dataIndex: 'id', title: t('finance.column.id'), width: 70 },
    ...(showUser
      ? [
          {
            key: 'user',
            title: t('finance.column.user'),
            onCell: () => NO_WRAP,
            render: (_: unknown, order: OrderView) => <span title={`#${order.user_id}`}>{order.username}</span>,
          },
        ]
      : []),
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('finance.column.kind'),
      onCell: () => NO_WRAP,
      render: (kind: string) => orderLabel(t, 'kind', kind),
    },
    {
      key: 'channel',
      dataIndex: 'channel',
      title: t('finance.column.channel'),
      onCell: () => NO_WRAP,
      render: (channel: string) => orderLabel(t, 'channel', channel),
    },
    {
      key: 'amount',
      dataIndex: 'amount',
      title: t('finance.column.amount'),
      align: 'right',
      onCell: () => NO_WRAP,
      render: (amount: number) => (
        <span style={{ color: amountColor(amount), fontVariantNumeric: 'tabular-nums' }}>{signedMoney(amount)}</span>
      ),
    },
    {
      key: 'balance_after',
      dataIndex: 'balance_after',
      title: t('finance.column.balanceAfter'),
      align: 'right',
      render: (value: number | null) => (value === null ? '—' : formatMoney(value)),
    },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('finance.column.state'),
      render: (state: string) => <Tag color={STATE_COLOR[state]}>{orderLabel(t, 'state', state)}</Tag>,
    },
    {
      key: 'description',
      title: t('finance.column.description'),
      onCell: () => NO_WRAP,
      render: (_, order) => {
        const text = orderDescription(t, order);
        // Cut at a width, with the whole text in a tooltip; the table keeps its automatic layout.
        return (
          <Tooltip title={text} placement="topLeft">
            <span data-testid={`order-description:${order.id}`} style={CUT}>
              {text}
            </span>
          </Tooltip>
        );
      },
    },
    {
      key: 'created_at',
      dataIndex: 'created_at',
      title: t('finance.column.createdAt'),
      onCell: () => NO_WRAP,
      render: (value: string) => formatLogTime(value, i18n.language),
    },
    {
      key: 'actions',
      title: t('finance.column.actions'),
      fixed: 'right',
      onCell: () => NO_WRAP,
      render: (_, order) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setShown(order)} data-testid={`order-details:${order.id}`}>
            {t('finance.list.details')}
          </Button>
          {refunds && isRefundable(order) && (
            <Button
              type="link"
              size="small"
              onClick={() => setRefunding(order)}
              data-testid={`order-refund:${order.id}`}
            >
              {t('finance.refund.button')}
            </Button>
          )}
          {order.state === 'pending' && (
            <Popconfirm
              title={t('finance.list.confirmClose', { no: order.out_trade_no })}
              okText={t('finance.list.confirm')}
              cancelText={t('finance.list.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => close(order)}
            >
              <Button type="link" size="small" danger data-testid={`order-close:${order.id}`}>
                {t('finance.list.close')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <Table<OrderView>
        rowKey="id"
        size="middle"
        data-testid={testId}
        loading={loading}
        dataSource={[...orders]}
        columns={columns.map((column) => ({ ...column, onHeaderCell: () => NO_WRAP }))}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('finance.list.empty') }}
        pagination={{
          current: page,
          pageSize,
          total,
          showSizeChanger: true,
          showTotal: totalText,
          onChange: onPage,
        }}
      />
      {shown && <OrderDrawer order={shown} onClose={() => setShown(undefined)} />}
      {refunding && <RefundModal order={refunding} onClose={() => setRefunding(undefined)} />}
    </>
  );
};
