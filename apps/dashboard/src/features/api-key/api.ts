import type { ApiKey, ApiKeyIssued, CreateApiKeyBody, UpdateApiKeyBody } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { ApiKey, ApiKeyIssued };

const KEY = ['api-key'];

/** GET /v1/api-key: the user's key without its secret, or null. */
export const useApiKey = () => {
  const http = useHttp();
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => http.get<ApiKey | null>('/v1/api-key', { signal }) });
};

export const useApiKeyActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  return {
    create: async (body: CreateApiKeyBody) => {
      const issued = await http.post<ApiKeyIssued>('/v1/api-key', body);
      await refresh();
      return issued;
    },
    /** Saves scope and allow list; with `rotate` the answer carries the new secret. */
    update: async (body: UpdateApiKeyBody) => {
      const updated = await http.put<ApiKeyIssued>('/v1/api-key', body);
      await refresh();
      return updated;
    },
    remove: async () => {
      await http.delete<null>('/v1/api-key');
      await refresh();
    },
  };
};
