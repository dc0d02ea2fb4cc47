import { randomBytes } from 'node:crypto';
import type { CreateUserBody, Impersonation, SavedUser, UpdateUserBody, UserBatchBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { insertSession } from '../auth/sessions.repository.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { changeConfig } from '../config/config-version.ts';
import { checkManage, checkManageAll } from './manage-rules.ts';
import {
  findUserByAccount,
  findUserByEmail,
  findUserByPhone,
  insertUser,
  presentUser,
  type UserRow,
  updateUser,
} from './users.repository.ts';
import {
  belongingsOf,
  deleteUserRow,
  findAdminUser,
  findManagedUsers,
  presentAdminUser,
  revokeSessionsOf,
  setUsersGroup,
  setUsersPackageExempt,
  setUsersStatus,
  touchServedBy,
} from './users-admin.repository.ts';

/** A password the admin asked the master to make: 16 URL-safe characters (96 random bits). */
const generatedPassword = () => randomBytes(12).toString('base64url');

async function checkGroup(db: Kysely<Database>, groupId: number | null | undefined, field = 'group') {
  if (groupId === undefined || groupId === null) return;
  const group = await db.selectFrom('user_groups').select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) throw new AppError('not_found', `${field}: user group ${groupId} does not exist`);
}

async function checkContacts(db: Kysely<Database>, id: number | undefined, body: { email?: string; phone?: string }) {
  if (body.email) {
    const other = await findUserByEmail(db, body.email);
    if (other && other.id !== id)
      throw new AppError('account_exists', 'email: this email address is already registered');
  }
  if (body.phone) {
    const other = await findUserByPhone(db, body.phone);
    if (other && other.id !== id)
      throw new AppError('account_exists', 'phone: this phone number is already registered');
  }
}

async function taken<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('account_exists', 'username: this account, email or phone is taken');
    throw error;
  }
}

export async function readAdminUser(db: Kysely<Database>, id: number) {
  const row = await findAdminUser(db, id);
  if (!row) throw new AppError('not_found', `id: user ${id} does not exist`);
  return row;
}

/** POST /v1/users: the admin sets the password, or has one made and answered once. */
export async function createUser(db: Kysely<Database>, actor: UserRow, body: CreateUserBody): Promise<SavedUser> {
  if (body.password === undefined && body.generate_password !== true) {
    throw new AppError('invalid_param', 'password: is required unless generate_password is true');
  }
  if (body.password !== undefined && body.generate_password === true) {
    throw new AppError('invalid_param', 'password: leave it out when generate_password is true');
  }
  const type = body.type ?? 2;
  if (type === 2 && body.access && body.access.length > 0) {
    throw new AppError('invalid_param', 'access: only admins (type 1) hold access codes');
  }
  await checkManage(db, actor, null, { type, access: body.access });
  if (await findUserByAccount(db, body.username)) {
    throw new AppError('account_exists', 'username: this username is already taken');
  }
  await checkContacts(db, undefined, body);
  await checkGroup(db, body.group);
  const password = body.password ?? generatedPassword();
  const row = await taken(async () =>
    insertUser(
      db,
      {
        username: body.username,
        passwordHash: await hashPassword(password),
        type,
        access: type === 1 ? (body.access ?? []) : [],
        name: body.name,
        email: body.email,
        phone: body.phone,
        qq: body.qq,
        groupId: body.group,
        packageExempt: body.package_exempt,
      },
      Date.now(),
    ),
  );
  const saved = presentAdminUser(await readAdminUser(db, row.id));
  return body.generate_password ? { ...saved, password } : saved;
}

/**
 * Enabling or disabling users changes what edges serve: their sites and streams leave the snapshot
 * (which reads only enabled users) and come back as each was, since no site's own switch is touched.
 * Disabling also ends their sessions; their API keys stop with their status.
 */
async function setStatus(db: Kysely<Database>, ids: readonly number[], status: 'enabled' | 'disabled') {
  const now = Date.now();
  const updated = await changeConfig(db, async (trx, version) => {
    const count = await setUsersStatus(trx, ids, status, now);
    if (status === 'disabled') await revokeSessionsOf(trx, ids, now);
    await touchServedBy(trx, ids, version);
    return count;
  });
  // Forget again after commit: a read between the in-transaction forget and the commit saw old rows.
  for (const id of ids) sessionCache.forgetUser(id);
  return updated;
}

function checkNotSelf(actor: UserRow, ids: readonly number[], what: string) {
  if (ids.includes(actor.id)) throw new AppError('invalid_param', `ids: you cannot ${what} your own account`);
}

/** PUT /v1/users/{id}: profile, password (ends their sessions), type, access, group, status. */
export async function changeUser(
  db: Kysely<Database>,
  actor: UserRow,
  id: number,
  body: UpdateUserBody,
): Promise<SavedUser> {
  const target = await readAdminUser(db, id);
  await checkManage(db, actor, target, { type: body.type, access: body.access });
  if (body.password !== undefined && body.generate_password === true) {
    throw new AppError('invalid_param', 'password: leave it out when generate_password is true');
  }
  // One's own password changes with the current one (PUT /v1/user), which this call does not ask for.
  if (id === actor.id && (body.password !== undefined || body.generate_password === true)) {
    throw new AppError('invalid_param', 'password: change your own password with PUT /v1/user');
  }
  if (id === actor.id && (body.type !== undefined || body.access !== undefined || body.status === 'disabled')) {
    throw new AppError('invalid_param', 'id: you cannot change the type, access or state of your own account');
  }
  const type = body.type ?? (target.type === 1 ? 1 : 2);
  if (type === 2 && body.access && body.access.length > 0) {
    throw new AppError('invalid_param', 'access: only admins (type 1) hold access codes');
  }
  await checkContacts(db, id, body);
  await checkGroup(db, body.group);
  const password = body.generate_password ? generatedPassword() : body.password;
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  const now = Date.now();
  await taken(() =>
    db.transaction().execute(async (trx) => {
      await updateUser(
        trx,
        id,
        {
          name: body.name,
          email: body.email,
          phone: body.phone,
          qq: body.qq,
          passwordHash,
          type: body.type,
          // A user made ordinary loses their codes; one made admin starts with those given.
          access: type === 2 ? (target.type === 1 ? [] : undefined) : body.access,
          groupId: body.group,
          packageExempt: body.package_exempt,
        },
        now,
      );
      if (passwordHash) await revokeSessionsOf(trx, [id], now);
    }),
  );
  if (body.status !== undefined && body.status !== target.status) await setStatus(db, [id], body.status);
  sessionCache.forgetUser(id);
  const saved = presentAdminUser(await readAdminUser(db, id));
  return body.generate_password && password ? { ...saved, password } : saved;
}

/** PUT /v1/users: enable, disable or move to a group many users at once; all of them or none. */
export async function batchUsers(db: Kysely<Database>, actor: UserRow, body: UserBatchBody) {
  const targets = await findManagedUsers(db, body.ids);
  const found = new Set(targets.map((target) => target.id));
  const missing = body.ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new AppError('not_found', `ids: user ${missing.slice(0, 10).join(', ')} does not exist`);
  if (body.action === 'group') {
    if (body.group_id === undefined)
      throw new AppError('invalid_param', 'group_id: is required to move users to a group');
    await checkGroup(db, body.group_id, 'group_id');
  } else if (body.group_id !== undefined) {
    throw new AppError('invalid_param', `group_id: is only for the group action`);
  }
  if (body.action === 'package_exempt') {
    if (body.package_exempt === undefined)
      throw invalidParam('package_exempt', 'is required with the package_exempt action');
  } else if (body.package_exempt !== undefined) {
    throw invalidParam('package_exempt', 'is only for the package_exempt action');
  }
  if (body.action === 'disable') checkNotSelf(actor, body.ids, 'disable');
  await checkManageAll(db, actor, targets);
  if (body.action === 'group') return { updated: await setUsersGroup(db, body.ids, body.group_id ?? null, Date.now()) };
  if (body.action === 'package_exempt') {
    return { updated: await setUsersPackageExempt(db, body.ids, body.package_exempt === true, Date.now()) };
  }
  return { updated: await setStatus(db, body.ids, body.action === 'enable' ? 'enabled' : 'disabled') };
}

/** DELETE /v1/users/{id}: only a user nothing belongs to; otherwise a conflict naming what does. */
export async function removeUser(db: Kysely<Database>, actor: UserRow, id: number) {
  const target = await readAdminUser(db, id);
  if (id === actor.id) throw new AppError('invalid_param', 'id: you cannot delete your own account');
  await checkManage(db, actor, target, { deletes: true });
  const owned = await belongingsOf(db, id);
  if (target.balance !== 0) owned.unshift('a balance');
  if (owned.length > 0) {
    throw new AppError(
      'conflict',
      `id: user ${target.username} still has ${owned.join(', ')}; remove or move them first`,
    );
  }
  await deleteUserRow(db, id);
}

/** An impersonation session lasts an hour: long enough to look into a problem, short if forgotten. */
export const IMPERSONATION_TTL_MS = 60 * 60 * 1000;

/** POST /v1/users/{id}/impersonate: a session of an enabled ordinary user that carries who opened it. */
export async function impersonate(
  db: Kysely<Database>,
  actor: UserRow,
  id: number,
  client: { ip: string; userAgent: string },
): Promise<Impersonation> {
  const target = await readAdminUser(db, id);
  if (target.type !== 2) throw new AppError('invalid_param', 'id: only ordinary users (type 2) can be signed in as');
  if (target.status !== 'enabled') throw new AppError('invalid_param', `id: user ${target.username} is disabled`);
  await checkManage(db, actor, target);
  const token = newToken();
  const now = Date.now();
  const expiresAt = now + IMPERSONATION_TTL_MS;
  await insertSession(db, {
    userId: id,
    impersonatorId: actor.id,
    tokenHash: hashToken(token),
    ...client,
    now,
    expiresAt,
  });
  return {
    access_token: token,
    expires_at: new Date(expiresAt).toISOString(),
    user: presentUser(target),
    impersonator: { id: actor.id, account: actor.username },
  };
}
