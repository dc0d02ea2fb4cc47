import { MESSAGE_CHANNELS, type MessageChannelName, type SubscriptionEntry } from '@rampart/contracts';
import Checkbox from 'antd/es/checkbox';
import Table, { type ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';

/** Message types down, channels across: a checkbox where the user is told of the type by the channel. */
export const SubscriptionMatrix = ({
  entries,
  onChange,
}: {
  entries: SubscriptionEntry[];
  onChange: (entries: SubscriptionEntry[]) => void;
}) => {
  const { t } = useTranslation();
  const toggle = (type: string, channel: MessageChannelName, on: boolean) =>
    onChange(entries.map((entry) => (entry.type === type ? { ...entry, [channel]: on } : entry)));
  const columns: ColumnsType<SubscriptionEntry> = [
    {
      key: 'type',
      dataIndex: 'type',
      title: t('messages.subscribe.typeColumn'),
      render: (type: string) => t(`messages.type.${type}`),
    },
    ...MESSAGE_CHANNELS.map((channel) => ({
      key: channel,
      title: t(`messages.channel.${channel}`),
      width: 110,
      align: 'center' as const,
      render: (_: unknown, entry: SubscriptionEntry) => (
        <Checkbox
          aria-label={`${t(`messages.type.${entry.type}`)} · ${t(`messages.channel.${channel}`)}`}
          checked={entry[channel]}
          onChange={(event) => toggle(entry.type, channel, event.target.checked)}
        />
      ),
    })),
  ];
  return (
    <Table<SubscriptionEntry>
      rowKey="type"
      size="small"
      data-testid="subscription-matrix"
      pagination={false}
      dataSource={entries}
      columns={columns}
      scroll={{ x: 'max-content' }}
    />
  );
};
