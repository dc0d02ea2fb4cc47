import type { Cert, UploadCertBody } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../sites/api.ts';

export const useCertList = (page: number, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['certs', 'list', page, limit],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<Cert>>('/v1/certs', { query: { page, limit }, signal }),
  });
};

export const useCertActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['certs'] });
  return {
    upload: async (body: UploadCertBody, options?: RequestOptions) => {
      const cert = await http.post<Cert>('/v1/certs', body, options);
      await refresh();
      return cert;
    },
    remove: async (id: number) => {
      await http.delete<unknown>(`/v1/certs/${id}`);
      await refresh();
    },
  };
};
