import type { DomainProofCheck } from '@rampart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { SITES_KEY } from '../siteQueries.ts';

/** POST /v1/sites/{id}/domain-proofs/check: DNS is asked now; the site's queries then show the result. */
export const useDomainProofCheck = (siteId: number) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<DomainProofCheck>(`/v1/sites/${siteId}/domain-proofs/check`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SITES_KEY }),
  });
};
