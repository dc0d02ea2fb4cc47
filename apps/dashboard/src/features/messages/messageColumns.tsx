import type { Message } from '@rampart/contracts';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import { formatLogTime } from '../account-logs/logTime.ts';

const TYPE_COLORS: Record<string, string> = { security: 'red', announcement: 'blue', node_failover: 'orange' };

export const MessageTypeTag = ({ type, t }: { type: string; t: TFunction }) => (
  <Tag color={TYPE_COLORS[type] ?? 'default'}>{t(`messages.type.${type}`)}</Tag>
);

/** The columns of a message list; `everyone` (the admin's query) adds the recipient. */
export const messageColumns = (
  t: TFunction,
  language: string,
  options: { everyone: boolean; onOpen: (message: Message) => void },
): ColumnsType<Message> => [
  {
    key: 'title',
    dataIndex: 'title',
    title: t('messages.list.title'),
    ellipsis: true,
    render: (title: string, message) => (
      <a
        href={`#message-${message.id}`}
        style={{ fontWeight: message.read || options.everyone ? 'normal' : 600 }}
        onClick={(event) => {
          event.preventDefault();
          options.onOpen(message);
        }}
      >
        {title}
      </a>
    ),
  },
  ...(options.everyone
    ? [{ key: 'account', dataIndex: 'account', title: t('messages.list.account'), width: 160 }]
    : []),
  {
    key: 'type',
    dataIndex: 'type',
    title: t('messages.list.typeColumn'),
    width: 150,
    render: (type: string) => <MessageTypeTag type={type} t={t} />,
  },
  {
    key: 'read',
    dataIndex: 'read',
    title: t('messages.list.state'),
    width: 100,
    render: (read: boolean) => (read ? t('messages.list.read') : <Tag color="gold">{t('messages.list.unread')}</Tag>),
  },
  {
    key: 'time',
    dataIndex: 'created_at',
    title: t('messages.list.time'),
    width: 190,
    sorter: true,
    sortDirections: ['descend', 'ascend'],
    render: (at: string) => formatLogTime(at, language),
  },
];
