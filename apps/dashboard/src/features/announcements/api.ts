import type { Announcement, AnnouncementBody, AnnouncementQuery } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { Announcement, AnnouncementBody };

const KEY = ['announcements'];

export interface AnnouncementPage {
  list: Announcement[];
  total: number;
}

/** GET /v1/announcements (admin:sys) */
export const useAnnouncements = (query: AnnouncementQuery & { page: number; limit: number }) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<AnnouncementPage>('/v1/announcements', { query: { ...query }, signal }),
  });
};

export const useAnnouncementActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: KEY });
    // Creating one sends a message to everyone, the admin included.
    await queryClient.invalidateQueries({ queryKey: ['messages'] });
  };
  return {
    create: async (body: AnnouncementBody) => {
      const created = await http.post<Announcement>('/v1/announcements', body);
      await refresh();
      return created;
    },
    update: async (id: number, body: AnnouncementBody) => {
      const updated = await http.put<Announcement>(`/v1/announcements/${id}`, body);
      await refresh();
      return updated;
    },
    remove: async (id: number) => {
      await http.delete(`/v1/announcements/${id}`);
      await refresh();
    },
  };
};
