import type { User } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sessionCache } from '../auth/session-cache.ts';
import type { UserRow } from './user-row.ts';
import { writeSearchTerms } from './user-search.ts';

export type { UserRow } from './user-row.ts';

/** Lookup keys: accounts, emails and phones are unique regardless of case and spacing. */
export const accountKey = (value: string) => value.trim().toLowerCase();
const optionalKey = (value: string) => (value.trim() ? accountKey(value) : null);

/** What the admin's user search reads: account, email, phone and name, lowercase, one per line. */
export const userSearchKey = (user: { username: string; email: string; phone: string; name: string }) =>
  [user.username, user.email, user.phone, user.name].join('\n').toLowerCase();

// Rows are never mutated (a change returns a new row), so a cached session's user is presented once.
const presented = new WeakMap<UserRow, User>();

/** The row as every call returns it: never the password hash. */
export function presentUser(row: UserRow): User {
  const known = presented.get(row);
  if (known) return known;
  const user: User = {
    id: row.id,
    account: row.username,
    username: row.username,
    name: row.name,
    email: row.email,
    phone: row.phone,
    qq: row.qq,
    type: row.type === 1 ? 1 : 2,
    access: JSON.parse(row.access) as string[],
    group: row.group_id,
    balance: row.balance,
    status: row.status === 'disabled' ? 'disabled' : 'enabled',
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
  presented.set(row, user);
  return user;
}

export interface NewUser {
  username: string;
  passwordHash: string;
  type: 1 | 2;
  access: readonly string[];
  email?: string | undefined;
  phone?: string | undefined;
  qq?: string | undefined;
  name?: string | undefined;
  /** The user group; absent: the default group for type 2 users, none for admins. */
  groupId?: number | null | undefined;
  /** May create sites and streams without a package (`require_package`). */
  packageExempt?: boolean | undefined;
}

export async function insertUser(db: Kysely<Database>, user: NewUser, now: number): Promise<UserRow> {
  const groupId =
    user.groupId !== undefined
      ? user.groupId
      : user.type === 2
        ? ((await db.selectFrom('user_groups').select('id').where('is_default', '=', 1).executeTakeFirst())?.id ?? null)
        : null;
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      username_key: accountKey(user.username),
      name: user.name ?? '',
      email: user.email ?? '',
      email_key: optionalKey(user.email ?? ''),
      phone: user.phone ?? '',
      phone_key: optionalKey(user.phone ?? ''),
      qq: user.qq ?? '',
      password_hash: user.passwordHash,
      type: user.type,
      access: JSON.stringify(user.access),
      group_id: groupId,
      search_key: userSearchKey({
        username: user.username,
        email: user.email ?? '',
        phone: user.phone ?? '',
        name: user.name ?? '',
      }),
      balance: 0,
      status: 'enabled',
      ...(user.packageExempt !== undefined && { package_exempt: user.packageExempt ? 1 : 0 }),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeSearchTerms(db, row.id, row);
  return row;
}

export const countUsers = async (db: Kysely<Database>) =>
  Number(
    (
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findUserById = (db: Kysely<Database>, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** A login account is a username or an email address. */
export const findUserByAccount = (db: Kysely<Database>, account: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_key', '=', accountKey(account)), eb('email_key', '=', accountKey(account))]))
    .executeTakeFirst();

export const findUserByEmail = (db: Kysely<Database>, email: string) =>
  db.selectFrom('users').selectAll().where('email_key', '=', accountKey(email)).executeTakeFirst();

export const findUserByPhone = (db: Kysely<Database>, phone: string) =>
  db.selectFrom('users').selectAll().where('phone_key', '=', accountKey(phone)).executeTakeFirst();

export interface UserChanges {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  qq?: string | undefined;
  passwordHash?: string | undefined;
  type?: 1 | 2 | undefined;
  access?: readonly string[] | undefined;
  groupId?: number | null | undefined;
  packageExempt?: boolean | undefined;
}

export async function updateUser(db: Kysely<Database>, id: number, changes: UserChanges, now: number) {
  const searched = changes.name !== undefined || changes.email !== undefined || changes.phone !== undefined;
  const current = searched
    ? await db
        .selectFrom('users')
        .select(['username', 'email', 'phone', 'name'])
        .where('id', '=', id)
        .executeTakeFirst()
    : undefined;
  const row = await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.email !== undefined && { email: changes.email, email_key: optionalKey(changes.email) }),
      ...(changes.phone !== undefined && { phone: changes.phone, phone_key: optionalKey(changes.phone) }),
      ...(changes.qq !== undefined && { qq: changes.qq }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
      ...(changes.type !== undefined && { type: changes.type }),
      ...(changes.access !== undefined && { access: JSON.stringify(changes.access) }),
      ...(changes.groupId !== undefined && { group_id: changes.groupId }),
      ...(changes.packageExempt !== undefined && { package_exempt: changes.packageExempt ? 1 : 0 }),
      ...(current && {
        search_key: userSearchKey({
          username: current.username,
          email: changes.email ?? current.email,
          phone: changes.phone ?? current.phone,
          name: changes.name ?? current.name,
        }),
      }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (current) await writeSearchTerms(db, id, row);
  sessionCache.forgetUser(id);
  return row;
}

export async function setUserStatus(db: Kysely<Database>, id: number, status: 'enabled' | 'disabled', now: number) {
  await db.updateTable('users').set({ status, updated_at: now }).where('id', '=', id).execute();
  sessionCache.forgetUser(id);
}
