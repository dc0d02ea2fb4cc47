import type {
  Message,
  MessageList,
  MessageQuery,
  MessageSendBody,
  MessageSendResult,
  MessageSubscription,
  MessageSubscriptionBody,
} from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { Message, MessageList, MessageSubscription };

export type MessageFilter = Omit<MessageQuery, 'page' | 'limit'>;
export type PagedMessages = MessageFilter & { page: number; limit: number };

const KEY = ['messages'];
/** The header's bell asks again this often, and after every change through these hooks. */
export const UNREAD_POLL_MS = 60_000;

/** GET /v1/messages: the caller's own messages; scope=all for an admin's query of everyone's. */
export const useMessages = (query: PagedMessages) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<MessageList>('/v1/messages', { query: { ...query }, signal }),
  });
};

/** The caller's unread count for the bell: one row asked for, the answer's `unread` read. */
export const useUnreadCount = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'unread'],
    refetchInterval: UNREAD_POLL_MS,
    queryFn: ({ signal }) =>
      http
        .get<MessageList>('/v1/messages', { query: { page: 1, limit: 1, read: false }, signal })
        .then((data) => data.unread),
  });
};

export const useMessageActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  return {
    setRead: async (id: number, read: boolean) => {
      const message = await http.put<Message>(`/v1/messages/${id}`, { read });
      await refresh();
      return message;
    },
    readMany: async (ids: number[] | 'all') => {
      await http.post('/v1/messages/read', ids === 'all' ? { all: true } : { ids });
      await refresh();
    },
    remove: async (id: number) => {
      await http.delete(`/v1/messages/${id}`);
      await refresh();
    },
    send: async (body: MessageSendBody) => {
      const result = await http.post<MessageSendResult>('/v1/messages', body);
      await refresh();
      return result;
    },
  };
};

/** GET, PUT /v1/messages/sub */
export const useSubscription = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'sub'],
    queryFn: ({ signal }) => http.get<MessageSubscription>('/v1/messages/sub', { signal }),
  });
};

export const useSaveSubscription = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (body: MessageSubscriptionBody) => {
    const saved = await http.put<MessageSubscription>('/v1/messages/sub', body);
    queryClient.setQueryData([...KEY, 'sub'], { ...saved, webhook_secret: undefined, test: undefined });
    return saved;
  };
};
