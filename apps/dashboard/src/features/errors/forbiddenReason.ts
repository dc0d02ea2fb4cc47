import { hasAccess, PERMISSIONS, USER_TYPE, type User, type UserType } from '@rampart/contracts';
import type { RouteGates } from '../../app/access.ts';

/** Why a signed-in user may not open a page: it is for another account type, or needs a permission. */
export type ForbiddenReason =
  | { kind: 'type'; pageFor: UserType; canImpersonate: boolean }
  | { kind: 'permission'; needs: readonly string[] }
  | { kind: 'unknown' };

// POST /v1/users/{id}/impersonate admits these (route policy admin(admin:user, admin:sys)).
const IMPERSONATORS = [PERMISSIONS.adminUser, PERMISSIONS.adminSys];

/** The first gate the user does not pass, in words the 403 page can show. */
export const forbiddenReason = (user: Pick<User, 'type' | 'access'>, gates: RouteGates): ForbiddenReason => {
  for (const gate of gates) {
    if (gate.types && !gate.types.includes(user.type)) {
      const pageFor = gate.types.includes(USER_TYPE.user) ? USER_TYPE.user : USER_TYPE.admin;
      const canImpersonate =
        pageFor === USER_TYPE.user && user.type === USER_TYPE.admin && hasAccess(user.access, IMPERSONATORS);
      return { kind: 'type', pageFor, canImpersonate };
    }
    if (!hasAccess(user.access, gate.auth)) return { kind: 'permission', needs: gate.auth ?? [] };
  }
  return { kind: 'unknown' };
};
