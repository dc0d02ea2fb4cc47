import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { caller } from '../plugins/auth.ts';
import { findUserById } from './users/users.repository.ts';

/**
 * Whose rows a call may touch. Repositories take this and scope every query on tenant data by it;
 * only an admin acting on purpose reaches every user's rows.
 */
export type Owner = { kind: 'user'; userId: number } | { kind: 'admin'; userId: number };

export function ownerOf(request: FastifyRequest): Owner {
  const { user } = caller(request);
  return user.type === 1 ? { kind: 'admin', userId: user.id } : { kind: 'user', userId: user.id };
}

/**
 * The user a new row belongs to: the caller, or for an admin the `user_id` they name, which must be
 * a user (a row of nobody would be refused by the foreign key, or worse, stored).
 */
export async function creatorOf(db: Kysely<Database>, owner: Owner, requested: number | undefined): Promise<number> {
  if (owner.kind !== 'admin' || requested === undefined) return owner.userId;
  if (!(await findUserById(db, requested)))
    throw new AppError('not_found', `user_id: user ${requested} does not exist`);
  return requested;
}
