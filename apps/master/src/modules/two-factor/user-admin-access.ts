import { hasAccess, PERMISSIONS } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { caller } from '../../plugins/auth.ts';

const USER_ADMIN = [PERMISSIONS.adminUser, PERMISSIONS.adminSys];

/** True for an admin who manages users (admin:user or admin:sys, as for /v1/users). */
export function isUserAdmin(request: FastifyRequest): boolean {
  const { user } = caller(request);
  return user.type === 1 && hasAccess(JSON.parse(user.access) as string[], USER_ADMIN);
}

export function requireUserAdmin(request: FastifyRequest) {
  if (caller(request).user.type !== 1) throw new AppError('forbidden', 'this needs an administrator');
  if (!isUserAdmin(request)) throw new AppError('forbidden', `this needs the ${USER_ADMIN.join(' or ')} permission`);
}
