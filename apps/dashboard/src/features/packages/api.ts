import {
  type AdminUser,
  type CcRuleGroup,
  type CouponBody,
  type CouponHistoryView,
  type CouponView,
  type DiscountBody,
  type DiscountView,
  type LineGroupView,
  MAX_LIMIT,
  type PackageBody,
  type PackageGroupBody,
  type PackageGroupView,
  type PackageUpBody,
  type PackageUpView,
  type PackageView,
  type UserPackageBatch,
  type UserPackageBuy,
  type UserPackageListQuery,
  type UserPackageView,
} from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export interface ListPage<T> {
  list: T[];
  total: number;
}

export type SoldQuery = UserPackageListQuery & { page: number; limit: number };
export type PageQuery = { page: number; limit: number };

const KEYS = {
  groups: ['package-groups'],
  packages: ['packages'],
  packUps: ['package-ups'],
  discounts: ['discounts'],
  coupons: ['coupons'],
  history: ['coupon-historys'],
  sold: ['user-packages'],
} as const;

const ALL = { page: 1, limit: MAX_LIMIT };

/** A short list read whole (`paged`: the call takes page and limit, asked for every row). */
const useList = <T>(key: readonly string[], path: string, paged = false) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...key],
    queryFn: ({ signal }) => http.get<ListPage<T>>(path, { ...(paged && { query: ALL }), signal }),
    select: (answer) => answer.list,
  });
};

/** GET /v1/package-groups (a handful). */
export const usePackageGroups = () => useList<PackageGroupView>(KEYS.groups, '/v1/package-groups');
/** GET /v1/packages: every package, for the table and the pickers of the other pages. */
export const usePackages = () => useList<PackageView>(KEYS.packages, '/v1/packages', true);
/** GET /v1/package-ups. */
export const usePackUps = () => useList<PackageUpView>(KEYS.packUps, '/v1/package-ups');
/** GET /v1/discounts. */
export const useDiscounts = () => useList<DiscountView>(KEYS.discounts, '/v1/discounts');
/** GET /v1/node-groups: the line groups a package's sites are served by. */
export const useLineGroupChoices = () => useList<LineGroupView>(['node-groups'], '/v1/node-groups');
/** GET /v1/cc-rules: the CC rule groups a package may allow. */
export const useCcRuleGroupChoices = () => useList<CcRuleGroup>(['cc-rule-groups', 'choices'], '/v1/cc-rules', true);

/** GET /v1/coupons: one page. */
export const useCoupons = (query: PageQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEYS.coupons, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<CouponView>>('/v1/coupons', { query: { ...query }, signal }),
  });
};

/** GET /v1/coupon-historys: one page, of one coupon when `coupon_id` is set. */
export const useCouponHistory = (query: PageQuery & { coupon_id?: number | undefined }) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEYS.history, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<CouponHistoryView>>('/v1/coupon-historys', { query: { ...query }, signal }),
  });
};

/** GET /v1/user-packages as an admin: every user's, filtered and paged by the server. */
export const useSoldPackages = (query: SoldQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEYS.sold, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<UserPackageView>>('/v1/user-packages', { query: { ...query }, signal }),
  });
};

/** GET /v1/users?search=: the users a picker offers for what was typed. */
export const useUserSearch = (search: string) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['users', 'pick', search],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<AdminUser>>('/v1/users', {
        query: { page: 1, limit: 20, ...(search && { search }) },
        signal,
      }),
    select: (answer) => answer.list,
  });
};

export const usePackageActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(keys: readonly (readonly string[])[], call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return answer;
    };
  const crud = <Body, View>(path: string, keys: readonly (readonly string[])[]) => ({
    create: after(keys, (body: Body, options?: RequestOptions) => http.post<View>(path, body, options)),
    update: after(keys, (id: number, body: Partial<Body>, options?: RequestOptions) =>
      http.put<View>(`${path}/${id}`, body, options),
    ),
    remove: after(keys, (id: number, options?: RequestOptions) => http.delete<null>(`${path}/${id}`, options)),
  });
  return {
    groups: crud<PackageGroupBody, PackageGroupView>('/v1/package-groups', [KEYS.groups, KEYS.packages]),
    packages: crud<PackageBody, PackageView>('/v1/packages', [KEYS.packages, KEYS.groups]),
    packUps: crud<PackageUpBody, PackageUpView>('/v1/package-ups', [KEYS.packUps]),
    discounts: crud<DiscountBody, DiscountView>('/v1/discounts', [KEYS.discounts]),
    coupons: crud<CouponBody, CouponView>('/v1/coupons', [KEYS.coupons]),
    grant: after([KEYS.sold, KEYS.packages], (body: UserPackageBuy, options?: RequestOptions) =>
      http.post<UserPackageView>('/v1/user-packages', body, options),
    ),
    batch: after([KEYS.sold], (body: UserPackageBatch) => http.put<null>('/v1/user-packages', body)),
    removeSold: after([KEYS.sold, KEYS.packages], (id: number) => http.delete<null>(`/v1/user-packages/${id}`)),
  };
};
