import type { CreateUserGroupBody, UpdateUserGroupBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError } from '../../errors.ts';
import {
  deleteUserGroup,
  findGroupByName,
  findUserGroup,
  insertUserGroup,
  updateUserGroup,
} from './user-groups.repository.ts';

const nameTaken = () => new AppError('conflict', 'name: a user group of this name exists');

async function checkName(db: Kysely<Database>, name: string | undefined, id: number | undefined) {
  if (name === undefined) return;
  const other = await findGroupByName(db, name);
  if (other && Number(other.id) !== id) throw nameTaken();
}

async function unique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createUserGroup(db: Kysely<Database>, body: CreateUserGroupBody) {
  await checkName(db, body.name, undefined);
  const id = await unique(() =>
    db.transaction().execute((trx) =>
      insertUserGroup(
        trx,
        {
          name: body.name,
          description: body.description,
          isDefault: body.is_default,
          packageGroups: body.package_groups,
        },
        Date.now(),
      ),
    ),
  );
  return readUserGroup(db, id);
}

export async function readUserGroup(db: Kysely<Database>, id: number) {
  const group = await findUserGroup(db, id);
  if (!group) throw new AppError('not_found', `id: user group ${id} does not exist`);
  return group;
}

export async function changeUserGroup(db: Kysely<Database>, id: number, body: UpdateUserGroupBody) {
  await readUserGroup(db, id);
  await checkName(db, body.name, id);
  await unique(() =>
    db.transaction().execute((trx) =>
      updateUserGroup(
        trx,
        id,
        {
          name: body.name,
          description: body.description,
          isDefault: body.is_default,
          packageGroups: body.package_groups,
        },
        Date.now(),
      ),
    ),
  );
  return readUserGroup(db, id);
}

/** A group with users stays: they would silently lose what it lets them buy. */
export async function removeUserGroup(db: Kysely<Database>, id: number) {
  const group = await readUserGroup(db, id);
  if (group.user_count > 0) {
    throw new AppError(
      'conflict',
      `id: user group ${id} still has ${group.user_count} user${group.user_count === 1 ? '' : 's'}; move them first`,
    );
  }
  await deleteUserGroup(db, id);
}
