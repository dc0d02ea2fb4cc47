import { hasAccess, PERMISSIONS } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAccess } from '../../plugins/admin-access.ts';
import { caller } from '../../plugins/auth.ts';

const USER_ADMIN = [PERMISSIONS.adminUser, PERMISSIONS.adminSys];

/** True for an admin who manages users (admin:user or admin:sys, as for /v1/users). */
export function isUserAdmin(request: FastifyRequest): boolean {
  const { user } = caller(request);
  return user.type === 1 && hasAccess(JSON.parse(user.access) as string[], USER_ADMIN);
}

/** The same check the admin-access hook makes for these routes, kept in the handler as well. */
export const requireUserAdmin = (request: FastifyRequest) => requireAccess(request, USER_ADMIN);
