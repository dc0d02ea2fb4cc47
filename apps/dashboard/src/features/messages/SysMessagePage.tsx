import type { Message } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { type MessageFilter, type PagedMessages, useMessages } from './api.ts';
import { MESSAGES_LOCALES } from './locales/bundle.ts';
import { MessageDrawer } from './MessageDrawer.tsx';
import { MessageFilters } from './MessageFilters.tsx';
import { messageColumns } from './messageColumns.tsx';
import { SendMessageModal } from './SendMessageModal.tsx';
import { SubscriptionPanel } from './SubscribePage.tsx';

/** Every user's messages by user, type and time; send one to a user, a group or all. */
const AllMessages = () => {
  const { t, i18n } = useLocales(MESSAGES_LOCALES);
  const totalText = useTotalText();
  const [query, setQuery] = useState<PagedMessages>({ page: 1, limit: 20, scope: 'all' });
  const [open, setOpen] = useState<Message | null>(null);
  const [sending, setSending] = useState(false);
  const messages = useMessages(query);
  const filter = (change: MessageFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, justifyContent: 'space-between' }}>
        <MessageFilters everyone onChange={filter} />
        <Button type="primary" onClick={() => setSending(true)} style={{ marginBottom: 16 }}>
          {t('messages.send.button')}
        </Button>
      </div>
      <Table<Message>
        rowKey="id"
        size="small"
        data-testid="message-list"
        loading={messages.isFetching}
        dataSource={messages.data?.list ?? []}
        columns={messageColumns(t, i18n.language, { everyone: true, onOpen: setOpen })}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: messages.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => totalText(total, messages.data?.total_capped),
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
      <MessageDrawer message={open} onClose={() => setOpen(null)} />
      <SendMessageModal open={sending} onClose={() => setSending(false)} />
    </>
  );
};

/**
 * Spec §2 /sys/message: the admin's query of all messages, and their own subscription (admins do not
 * reach /account, and node failover notices are theirs alone).
 */
export const Component = () => {
  const { t } = useLocales(MESSAGES_LOCALES);
  return (
    <section data-testid="sys-message-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'all', label: t('messages.sysTabs.all'), children: <AllMessages /> },
          { key: 'subscription', label: t('messages.sysTabs.subscription'), children: <SubscriptionPanel /> },
        ]}
      />
    </section>
  );
};
