import type { RecoveryCodes, TwoFactorProofBody, TwoFactorSetup, TwoFactorStatus } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { RecoveryCodes, TwoFactorProofBody, TwoFactorSetup, TwoFactorStatus };

const KEY = ['two-factor'];

/** GET /v1/user/two-factor */
export const useTwoFactor = () => {
  const http = useHttp();
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => http.get<TwoFactorStatus>('/v1/user/two-factor', { signal }),
  });
};

export const useTwoFactorActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  return {
    start: async (password: string) => {
      const setup = await http.post<TwoFactorSetup>('/v1/user/two-factor', { password });
      await refresh();
      return setup;
    },
    confirm: async (code: string) => {
      const codes = await http.put<RecoveryCodes>('/v1/user/two-factor', { code });
      await refresh();
      return codes;
    },
    newRecoveryCodes: async (proof: TwoFactorProofBody) => {
      const codes = await http.post<RecoveryCodes>('/v1/user/two-factor/recovery-codes', proof);
      await refresh();
      return codes;
    },
    disable: async (proof: TwoFactorProofBody) => {
      await http.delete<null>('/v1/user/two-factor', { body: proof });
      await refresh();
    },
  };
};
