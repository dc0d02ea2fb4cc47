import type {
  AdminUser,
  CreateUserBody,
  CreateUserGroupBody,
  SavedUser,
  UpdateUserBody,
  UpdateUserGroupBody,
  UserBatchBody,
  UserGroup,
  UserListQuery,
} from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { AdminUser, SavedUser, UserGroup };

export interface ListPage<T> {
  list: T[];
  total: number;
  total_capped?: boolean;
}

export type UserQuery = UserListQuery & { page: number; limit: number };

const USERS_KEY = ['users'] as const;
const GROUPS_KEY = ['user-groups'] as const;

/** GET /v1/users: one page, searched, filtered and sorted by the server. */
export const useUserList = (query: UserQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...USERS_KEY, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<AdminUser>>('/v1/users', { query: { ...query }, signal }),
  });
};

/** Every user group (a handful), for filters, forms and the groups tab. */
export const useUserGroups = () => {
  const http = useHttp();
  return useQuery({
    queryKey: GROUPS_KEY,
    queryFn: ({ signal }) =>
      http.get<ListPage<UserGroup>>('/v1/user-groups', { query: { page: 1, limit: 1000 }, signal }),
    select: (answer) => answer.list,
  });
};

export const useUserActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: USERS_KEY }),
        queryClient.invalidateQueries({ queryKey: GROUPS_KEY }),
      ]);
      return answer;
    };
  return {
    create: after((body: CreateUserBody, options?: RequestOptions) => http.post<SavedUser>('/v1/users', body, options)),
    update: after((id: number, body: UpdateUserBody, options?: RequestOptions) =>
      http.put<SavedUser>(`/v1/users/${id}`, body, options),
    ),
    batch: after((body: UserBatchBody) => http.put<{ updated: number }>('/v1/users', body)),
    remove: after((id: number, options?: RequestOptions) => http.delete<null>(`/v1/users/${id}`, options)),
  };
};

export const useUserGroupActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: GROUPS_KEY }),
        queryClient.invalidateQueries({ queryKey: USERS_KEY }),
      ]);
      return answer;
    };
  return {
    create: after((body: CreateUserGroupBody, options?: RequestOptions) =>
      http.post<UserGroup>('/v1/user-groups', body, options),
    ),
    update: after((id: number, body: UpdateUserGroupBody, options?: RequestOptions) =>
      http.put<UserGroup>(`/v1/user-groups/${id}`, body, options),
    ),
    remove: after((id: number, options?: RequestOptions) => http.delete<null>(`/v1/user-groups/${id}`, options)),
  };
};
