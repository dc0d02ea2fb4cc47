import type { FastifyRequest } from 'fastify';
import { caller } from '../plugins/auth.ts';

/**
 * Whose rows a call may touch. Repositories take this and scope every query on tenant data by it;
 * only an admin acting on purpose reaches every user's rows.
 */
export type Owner = { kind: 'user'; userId: number } | { kind: 'admin'; userId: number };

export function ownerOf(request: FastifyRequest): Owner {
  const { user } = caller(request);
  return user.type === 1 ? { kind: 'admin', userId: user.id } : { kind: 'user', userId: user.id };
}

/** The user a new row belongs to: the caller, or for an admin the `user_id` they name. */
export const creatorOf = (owner: Owner, requested: number | undefined) =>
  owner.kind === 'admin' && requested !== undefined ? requested : owner.userId;
