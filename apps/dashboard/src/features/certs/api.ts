import type { AcmeCertBody, Cert, UpdateCertBody, UploadCertBody } from '@rampart/contracts';
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../sites/api.ts';
import { anyIssuing } from './acmeRequest.ts';
import { certFileName } from './certExpiry.ts';

export const useCertList = (page: number, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['certs', 'list', page, limit],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<Cert>>('/v1/certs', { query: { page, limit }, signal }),
    // While an issuance runs, its progress and outcome show without a reload.
    refetchInterval: (query) => (anyIssuing(query.state.data?.list ?? []) ? 2000 : false),
  });
};

/** How many sites use each certificate on the page: `total` of GET /v1/sites?cert_id=…&limit=1. */
export const useCertUsage = (certIds: readonly number[]): Map<number, number> => {
  const http = useHttp();
  const answers = useQueries({
    queries: certIds.map((certId) => ({
      queryKey: ['sites', 'using-cert', certId],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        http.get<ListPage<unknown>>('/v1/sites', { query: { cert_id: certId, limit: 1 }, signal }),
    })),
  });
  const usage = new Map<number, number>();
  certIds.forEach((certId, index) => {
    const total = answers[index]?.data?.total;
    if (total !== undefined) usage.set(certId, total);
  });
  return usage;
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
    /** Starts an ACME issuance; the master answers at once and the list follows its progress. */
    request: async (body: AcmeCertBody, options?: RequestOptions) => {
      const cert = await http.post<Cert>('/v1/certs', body, options);
      await refresh();
      return cert;
    },
    reissue: async (id: number) => {
      const body: UpdateCertBody = { reissue: true };
      await http.put<Cert>(`/v1/certs/${id}`, body);
      await refresh();
    },
    /** Saves the certificate chain (never the key) as `<name>.pem` through an object URL. */
    download: async (cert: Cert) => {
      const pem = await http.download(`/v1/certs/${cert.id}/pem`);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(pem);
      link.download = certFileName(cert.name);
      link.click();
      // The click has handed the blob to the browser's download by the next task.
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
    },
    remove: async (id: number) => {
      await http.delete<unknown>(`/v1/certs/${id}`);
      await refresh();
    },
  };
};
