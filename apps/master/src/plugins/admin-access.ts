import { hasAccess, PERMISSIONS, type Permission } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { caller } from './auth.ts';

const { adminFinance, adminNode, adminPackage, adminSys, adminUser } = PERMISSIONS;
/** No code needed, but an admin (type 1). */
const ANY_ADMIN: readonly Permission[] = [];

/**
 * The access codes (spec §6) each admin area of the API needs: a route whose path is one of these or
 * lies under it answers only type 1 users holding at least one of the codes, before its input is
 * read (an empty list: any admin). The same codes gate the dashboard's menus (packages/contracts/src/routes.ts). Routes that
 * serve customers too (their own logs, settings they may read) check inside instead.
 */
export const ADMIN_ROUTE_ACCESS: readonly { path: string; access: readonly Permission[] }[] = [
  { path: '/v1/users', access: [adminUser, adminSys] },
  { path: '/v1/user-groups', access: [adminUser, adminSys] },
  // The review of a certification request; POST and GET /v1/user/certify serve customers too.
  { path: '/v1/user/certify/:id', access: [adminUser, adminSys] },
  { path: '/v1/nodes', access: [adminNode] },
  { path: '/v1/node-groups', access: [adminNode] },
  { path: '/v1/regions', access: [adminNode] },
  { path: '/v1/lines', access: [adminNode] },
  { path: '/v1/pending-nodes', access: [adminNode] },
  { path: '/v1/cname-domains', access: [adminNode] },
  { path: '/v1/tasks', access: [adminSys] },
  { path: '/v1/system/storage', access: [adminSys] },
  { path: '/v1/log/msg-send', access: [adminSys] },
  // Writing announcements; the login page reads the active ones at the public GET /v1/common/announcements.
  { path: '/v1/announcements', access: [adminSys] },
  { path: '/v1/monitor/node', access: [adminNode] },
  // Node IPs switched by the health checks (/node/monitor-setting).
  { path: '/v1/log/ip-switch', access: [adminNode] },
  { path: '/v1/monitor/nodes', access: [adminNode] },
  // The admin home's figures: every admin lands there, whatever their codes.
  { path: '/v1/admin/overview', access: ANY_ADMIN },
  { path: '/v1/new-user/count', access: ANY_ADMIN },
  { path: '/v1/package-sold/count', access: ANY_ADMIN },
  { path: '/v1/order/count', access: ANY_ADMIN },
  // The package monitor's ranking: the /package area of the menu needs admin:package.
  { path: '/v1/monitor/user-package', access: [adminPackage] },
  // Coupons are the admin's marketing; customers only type a code at the buy page.
  { path: '/v1/coupons', access: [adminPackage] },
  { path: '/v1/coupon-historys', access: [adminPackage] },
  // Payment settings: keys of the operator's merchant accounts.
  { path: '/v1/configs/global-0-payment-wxpay', access: [adminSys] },
  { path: '/v1/configs/global-0-payment-alipay', access: [adminSys] },
  // Balance adjustments by an admin; a customer's own recharge goes through /v1/orders.
  { path: '/v1/user/:uid/recharge', access: [adminFinance] },
  // Refunds of online recharges through the payment provider.
  { path: '/v1/orders/:id/refunds', access: [adminFinance] },
  // /sys/op: agent and master upgrades, the master's transfer, the agents' self-test.
  { path: '/v1/agent/upgrades', access: [adminSys] },
  { path: '/v1/master', access: [adminSys] },
  { path: '/v1/maintain', access: [adminSys] },
];

const byPath = new Map<string, readonly Permission[] | null>();

/** The codes a route pattern needs, or null for routes every signed-in user may call. */
export function routeAccess(route: string): readonly Permission[] | null {
  const known = byPath.get(route);
  if (known !== undefined) return known;
  const rule = ADMIN_ROUTE_ACCESS.find(({ path }) => route === path || route.startsWith(`${path}/`));
  const access = rule?.access ?? null;
  byPath.set(route, access);
  return access;
}

/** An admin holding at least one of the codes; otherwise forbidden. */
export function requireAccess(request: FastifyRequest, access: readonly string[]) {
  const { user } = caller(request);
  if (user.type !== 1) throw new AppError('forbidden', 'this needs an administrator');
  if (!hasAccess(JSON.parse(user.access) as string[], access)) {
    throw new AppError('forbidden', `this needs the ${access.join(' or ')} permission`);
  }
}

const READS = new Set(['GET', 'HEAD']);
/** Credentials that would outlive an impersonation session: the admin signed in as the user makes none. */
const NOT_WHILE_IMPERSONATING = new Set(['/v1/api-key']);

/** onRequest hook after `authenticate`: admin routes refuse everyone else before reading any input. */
export async function checkAdminAccess(request: FastifyRequest) {
  const route = request.routeOptions.url ?? '';
  const access = routeAccess(route);
  if (access) requireAccess(request, access);
  if (request.auth?.impersonatorId && !READS.has(request.method) && NOT_WHILE_IMPERSONATING.has(route)) {
    throw new AppError('forbidden', 'an admin signed in as this user cannot manage their API key');
  }
}
