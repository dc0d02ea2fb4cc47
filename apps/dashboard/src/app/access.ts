import { hasAccess, type RouteRecord, type User } from '@rampart/contracts';

/** A page and the groups above it; each may limit user types and need a permission. */
export type RouteGates = readonly Pick<RouteRecord, 'types' | 'auth'>[];

export const canVisit = (user: Pick<User, 'type' | 'access'>, gates: RouteGates): boolean =>
  gates.every((gate) => (!gate.types || gate.types.includes(user.type)) && hasAccess(user.access, gate.auth));
