import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/session.ts';
import { useAuthApi } from './api.ts';

/** Revokes the token on the server (DELETE /v1/common/auth), then forgets the session here either way. */
export const useSignOut = () => {
  const api = useAuthApi();
  const clear = useSession((state) => state.clear);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await api.signOut({ onError: () => undefined }).catch(() => undefined);
    clear();
    queryClient.clear();
    navigate('/login', { replace: true });
  };
};
