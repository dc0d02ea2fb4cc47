import {
  type DiscountView,
  MAX_LIMIT,
  type PackageGroupView,
  type PackageUpView,
  type PackageView,
  type PriceQuote,
  type SitePackageFeatures,
  type UpgradeExtendResult,
  type UpgradeQuote,
  type UpgradeView,
  type User,
  type UserPackagePurchase,
  type UserPackageStanding,
  type UserPackageView,
} from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useSession } from '../../shared/session/session.ts';
import { buyRequest, type PurchaseDraft, renewRequest } from './pricing.ts';

export type { PriceQuote, UpgradeExtendResult, UpgradeQuote, UserPackageView };

interface ListPage<T> {
  list: T[];
  total: number;
}

const USER_PACKAGES_KEY = ['user-packages'] as const;
const UPGRADES_KEY = ['user-package-upgrades'] as const;
const ME_KEY = ['user', 'me'] as const;

const useList = <T>(key: readonly unknown[], path: string) => {
  const http = useHttp();
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => http.get<ListPage<T>>(path, { query: { page: 1, limit: MAX_LIMIT }, signal }),
    select: (answer) => answer.list,
  });
};

/** GET /v1/packages: for a customer, the packages on sale to their user group, in buy-page order. */
export const usePackagesOnSale = () => useList<PackageView>(['packages', 'on-sale'], '/v1/packages');
/** GET /v1/package-groups: the groups the customer may buy from, in their order. */
export const usePackageGroups = () => useList<PackageGroupView>(['package-groups'], '/v1/package-groups');
/** GET /v1/discounts: percent off by term, per package or for every package. */
export const useDiscounts = () => useList<DiscountView>(['discounts'], '/v1/discounts');
/** GET /v1/package-ups: the upgrade packs on sale. */
export const usePackageUps = () => useList<PackageUpView>(['package-ups'], '/v1/package-ups');

/** GET /v1/user: the signed-in user with the balance now; the stored user follows it. */
export const useBalance = () => {
  const http = useHttp();
  const setUser = useSession((state) => state.setUser);
  return useQuery({
    queryKey: [...ME_KEY],
    queryFn: async ({ signal }) => {
      const user = await http.get<User>('/v1/user', { signal });
      setUser(user);
      return user;
    },
    select: (user) => user.balance,
  });
};

const STANDING_KEY = ['user-packages', 'standing'] as const;

/**
 * GET /v1/user-packages/standing, quietly: whether the account needs a package for sites and streams
 * (`unlimited` when it does not) and what counts against none yet.
 */
export const usePackageStanding = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...STANDING_KEY],
    queryFn: ({ signal }) => http.get<UserPackageStanding>('/v1/user-packages/standing', { signal, silent: true }),
    retry: false,
  });
};

/** GET /v1/user-packages: the customer's own packages, a page at a time. */
export const useUserPackages = (page: number, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...USER_PACKAGES_KEY, page, limit],
    queryFn: ({ signal }) =>
      http.get<ListPage<UserPackageView>>('/v1/user-packages', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
};

/** GET /v1/user-package/{id}/upgrades: the upgrade packs on one user package. */
export const useUpgrades = (userPackageId: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...UPGRADES_KEY, userPackageId],
    queryFn: ({ signal }) => http.get<ListPage<UpgradeView>>(`/v1/user-package/${userPackageId}/upgrades`, { signal }),
    select: (answer) => answer.list,
  });
};

/** Quotes and payments; a payment refreshes the packages and the balance. */
export const useUserPackageActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = (...keys: (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  return {
    quoteBuy: async (packageId: number, draft: PurchaseDraft, options?: RequestOptions) =>
      (await http.post<{ quote: PriceQuote }>('/v1/user-packages', buyRequest(packageId, draft, true), options)).quote,
    buy: async (packageId: number, draft: PurchaseDraft, options?: RequestOptions) => {
      const bought = await http.post<UserPackagePurchase>(
        '/v1/user-packages',
        buyRequest(packageId, draft, false),
        options,
      );
      await refresh(USER_PACKAGES_KEY, ME_KEY, ['packages']);
      return bought;
    },
    quoteRenew: async (id: number, draft: PurchaseDraft, options?: RequestOptions) =>
      (await http.put<{ quote: PriceQuote }>(`/v1/user-packages/${id}`, renewRequest(draft, true), options)).quote,
    renew: async (id: number, draft: PurchaseDraft, options?: RequestOptions) => {
      await http.put<UserPackageView>(`/v1/user-packages/${id}`, renewRequest(draft, false), options);
      await refresh(USER_PACKAGES_KEY, ME_KEY, UPGRADES_KEY);
    },
    update: async (id: number, body: { name?: string; auto_renew?: boolean }, options?: RequestOptions) => {
      await http.put<UserPackageView>(`/v1/user-packages/${id}`, body, options);
      await refresh(USER_PACKAGES_KEY);
    },
    quoteUpgrade: (id: number, packageUpId: number, amount: number, options?: RequestOptions) =>
      http.get<UpgradeQuote>(`/v1/user-package/${id}/upgrades/${packageUpId}`, { ...options, query: { amount } }),
    buyUpgrade: async (id: number, packageUpId: number, amount: number, options?: RequestOptions) => {
      await http.post<ListPage<UpgradeView>>(
        `/v1/user-package/${id}/upgrades`,
        { package_up_id: packageUpId, amount },
        options,
      );
      await refresh(USER_PACKAGES_KEY, ME_KEY, UPGRADES_KEY);
    },
    /** PUT /v1/user-package/{id}/upgrades with `quote`: the price of carrying the packs to the package's end. */
    quoteExtendUpgrades: (id: number, options?: RequestOptions) =>
      http.put<UpgradeExtendResult>(`/v1/user-package/${id}/upgrades`, { quote: true }, options),
    /** Pays the quoted `price`; the server refuses it if the price changed since. */
    extendUpgrades: async (id: number, price: number, options?: RequestOptions) => {
      const paid = await http.put<UpgradeExtendResult>(`/v1/user-package/${id}/upgrades`, { price }, options);
      await refresh(USER_PACKAGES_KEY, ME_KEY, UPGRADES_KEY);
      return paid;
    },
  };
};

/** What the site's package lets it turn on; keyed by the site's version, so a save reads it again. */
export const useSitePackageFeatures = (siteId: number, version: string) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['site-package-features', siteId, version],
    queryFn: ({ signal }) => http.get<SitePackageFeatures>(`/v1/sites/${siteId}/package-features`, { signal }),
  });
};
