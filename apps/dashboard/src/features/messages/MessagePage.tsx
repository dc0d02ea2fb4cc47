import type { Message } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { type MessageFilter, type PagedMessages, useMessageActions, useMessages } from './api.ts';
import { MESSAGES_LOCALES } from './locales/bundle.ts';
import { MessageDrawer } from './MessageDrawer.tsx';
import { MessageFilters } from './MessageFilters.tsx';
import { messageColumns } from './messageColumns.tsx';

/** Spec §2 /account/message: the user's messages; read one in a drawer, mark a batch read, delete. */
export const Component = () => {
  const { t, i18n } = useLocales(MESSAGES_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const [query, setQuery] = useState<PagedMessages>({ page: 1, limit: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<Message | null>(null);
  const messages = useMessages(query);
  const actions = useMessageActions();
  const filter = (change: MessageFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));

  const openMessage = async (message: Message) => {
    setOpen(message);
    if (!message.read) setOpen(await actions.setRead(message.id, true));
  };
  const toggleRead = async (message: Message) => setOpen(await actions.setRead(message.id, !message.read));
  const readMany = async (ids: number[] | 'all') => {
    await actions.readMany(ids);
    setSelected([]);
    feedback.success(t('messages.list.markedRead'));
  };
  const remove = async (id: number) => {
    await actions.remove(id);
    setSelected((current) => current.filter((other) => other !== id));
    feedback.success(t('messages.list.deleted'));
  };

  const columns = [
    ...messageColumns(t, i18n.language, {
      everyone: false,
      onOpen: (message) => void openMessage(message).catch(() => undefined),
    }),
    {
      key: 'actions',
      width: 90,
      render: (_: unknown, message: Message) => (
        <Popconfirm
          title={t('messages.list.confirmDelete')}
          okText={t('messages.list.confirm')}
          cancelText={t('messages.list.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(message.id).catch(() => undefined)}
        >
          <Button type="link" danger size="small">
            {t('messages.list.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <section data-testid="account-message-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, justifyContent: 'space-between' }}>
        <MessageFilters everyone={false} onChange={filter} />
        <div style={{ display: 'flex', gap: 8, marginBottom: 16 }}>
          <Button disabled={selected.length === 0} onClick={() => readMany(selected).catch(() => undefined)}>
            {t('messages.list.markRead')}
          </Button>
          <Button disabled={(messages.data?.unread ?? 0) === 0} onClick={() => readMany('all').catch(() => undefined)}>
            {t('messages.list.markAllRead')}
          </Button>
        </div>
      </div>
      <Table<Message>
        rowKey="id"
        size="small"
        data-testid="message-list"
        loading={messages.isFetching}
        dataSource={messages.data?.list ?? []}
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: messages.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination, _filters, sorter) => {
          const order = !Array.isArray(sorter) && sorter.order === 'ascend' ? 'asc' : 'desc';
          setQuery((current) => ({
            ...current,
            order,
            page: pagination.current ?? 1,
            limit: pagination.pageSize ?? 20,
          }));
        }}
      />
      <MessageDrawer
        message={open}
        onClose={() => setOpen(null)}
        onToggleRead={(message) => void toggleRead(message).catch(() => undefined)}
      />
    </section>
  );
};
