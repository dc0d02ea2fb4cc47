import type { AdminUser, Impersonation } from '@rampart/contracts';
import { useNavigate } from 'react-router';
import { consoleQueryClient } from '../../app/queryClient.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { landingPath, useSession } from '../../shared/session/session.ts';
import { clearImpersonation, readImpersonation, saveImpersonation } from './impersonation.ts';

/** Signs the admin in as the user (POST /v1/users/{id}/impersonate), keeping the admin's session to go back to. */
export const useImpersonate = () => {
  const http = useHttp();
  const navigate = useNavigate();
  return async (user: AdminUser) => {
    const answer = await http.post<Impersonation>(`/v1/users/${user.id}/impersonate`);
    const { token, user: admin, signIn } = useSession.getState();
    if (!token || !admin) return;
    saveImpersonation({ adminToken: token, adminUser: admin, account: answer.user.account });
    signIn({ ...answer.user, access_token: answer.access_token, expires_at: answer.expires_at });
    consoleQueryClient.clear();
    navigate(landingPath(answer.user), { replace: true });
  };
};

/** Ends the impersonation session (DELETE /v1/common/auth) and restores the admin's. */
export const useBackToAdmin = () => {
  const http = useHttp();
  const navigate = useNavigate();
  return async () => {
    const state = readImpersonation();
    await http.delete<null>('/v1/common/auth', { onError: () => undefined }).catch(() => undefined);
    clearImpersonation();
    if (!state) {
      useSession.getState().clear();
      navigate('/login', { replace: true });
      return;
    }
    useSession.getState().signIn({ ...state.adminUser, access_token: state.adminToken, expires_at: '' });
    consoleQueryClient.clear();
    navigate('/sys/user', { replace: true });
  };
};
