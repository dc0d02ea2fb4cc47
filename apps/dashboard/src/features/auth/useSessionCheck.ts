import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../../shared/session/session.ts';
import { useAuthApi } from './api.ts';

/** Validates the stored token once per page load (GET /v1/common/auth) and refreshes the stored user. */
export const useSessionCheck = () => {
  const api = useAuthApi();
  const token = useSession((state) => state.token);
  const setUser = useSession((state) => state.setUser);
  const query = useQuery({
    queryKey: ['session', token],
    queryFn: api.session,
    enabled: token !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (query.data) setUser(query.data.user);
  }, [query.data, setUser]);
  return query;
};
