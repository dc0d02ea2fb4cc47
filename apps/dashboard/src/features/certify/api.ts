import type { Certification, CertifyBody, CertifyQuery, CertifyReviewBody } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { Certification, CertifyBody, CertifyReviewBody };

const KEY = ['certify'];

export interface CertificationPage {
  list: Certification[];
  total: number;
}

/** GET /v1/user/certify: the caller's own requests; an admin's filtered view of everyone's. */
export const useCertifications = (query: CertifyQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<CertificationPage>('/v1/user/certify', { query: { ...query }, signal }),
  });
};

export const useCertifyActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  return {
    submit: async (body: CertifyBody) => {
      const created = await http.post<Certification>('/v1/user/certify', body);
      await refresh();
      return created;
    },
    review: async (id: number, body: CertifyReviewBody) => {
      const reviewed = await http.put<Certification>(`/v1/user/certify/${id}`, body);
      await refresh();
      return reviewed;
    },
  };
};
