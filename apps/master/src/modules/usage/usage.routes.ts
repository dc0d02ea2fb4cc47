import {
  Envelope,
  IdParams,
  PERMISSIONS,
  Usage,
  UsageCount,
  UsageCountQuery,
  UsageQuery,
  UserPackageUsage,
  UserPackageUsageQuery,
  UserUsageList,
  UserUsageQuery,
} from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { findUserPackage } from '../packages/user-packages.repository.ts';
import { ownerOf } from '../tenancy.ts';
import { usageCount, usageOf, userPackageUsageOf, userUsageRanking } from './usage.service.ts';

const tags = ['usage'];

/**
 * Usage with the monthly 95th percentile: the caller's own (an admin holding admin:package may name
 * any user, and read any user package's) and the admin:package ranking.
 */
export async function usageRoutes(app: App, { db, logs, events }: AppContext) {
  const stores = { db, logs, events };

  app.get(
    '/v1/monitor/usage',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminPackage) },
      schema: {
        tags,
        description:
          'Traffic of a billing period (a UTC calendar month, default the current one) per day and per site, with the 95th-percentile bandwidth out of its 5-minute samples (sorted, the top 5 % dropped, the highest left billed; intervals without traffic count as zero) and a linear forecast to the end of the month. Admins holding admin:package may pass user_id.',
        querystring: UsageQuery,
        response: { 200: Envelope(Usage) },
      },
    },
    async (request) => ok(await usageOf(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/usage-count',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminPackage) },
      schema: {
        tags,
        description:
          'Traffic totals of whole UTC days, from and to included (default: this month up to today), at most 366 days. Admins holding admin:package may pass user_id.',
        querystring: UsageCountQuery,
        response: { 200: Envelope(UsageCount) },
      },
    },
    async (request) => ok(await usageCount(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/user-package',
    {
      config: { policy: policy.admin(PERMISSIONS.adminPackage) },
      schema: {
        tags,
        description:
          'Admin (admin:package): ordinary users ranked by traffic out in the month, most first, with their 95th percentile and forecast.',
        querystring: UserUsageQuery,
        response: { 200: Envelope(UserUsageList) },
      },
    },
    async (request) => ok(await userUsageRanking(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/user-package/:id/usage',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminPackage) },
      schema: {
        tags,
        description:
          "The usage of a user package in a month: the traffic, 95th percentile and forecast of the sites that count against it, the traffic of its streams, and counted_bytes_out (its sites' and streams' bytes out, what counts against its monthly traffic). Customers read their own packages; admins holding admin:package any.",
        params: IdParams,
        querystring: UserPackageUsageQuery,
        response: { 200: Envelope(UserPackageUsage) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const pkg = await findUserPackage(stores.db, request.params.id, owner);
      return ok(await userPackageUsageOf(stores, owner, pkg, request.query.month, Date.now()));
    },
  );
}
