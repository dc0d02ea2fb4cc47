import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { type Scope, scopeOf } from '../plugins/route-policy.ts';
import { findUserById } from './users/users.repository.ts';

/**
 * Whose rows a call may touch: the scope the route's declared policy handed the request (an admin
 * reaches every user's rows only holding the code the route names). Repositories take this and
 * scope every query on tenant data by it.
 */
export type Owner = Scope;

export const ownerOf = (request: FastifyRequest): Owner => scopeOf(request);

/**
 * The user a new row belongs to: the caller, or for an admin the `user_id` they name, which must be
 * a user (a row of nobody would be refused by the foreign key, or worse, stored).
 */
export async function creatorOf(db: Kysely<Database>, owner: Owner, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === owner.userId) return owner.userId;
  if (owner.kind !== 'admin')
    throw new AppError(
      'forbidden',
      `user_id: only an administrator holding this area's code creates rows for another user`,
    );
  if (!(await findUserById(db, requested)))
    throw new AppError('not_found', `user_id: user ${requested} does not exist`);
  return requested;
}
