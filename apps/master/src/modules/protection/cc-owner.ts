import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { creatorOf, type Owner } from '../tenancy.ts';

/** The owner of system matches, filters and rule groups: every user may use them, only admins change them. */
export const SYSTEM_USER = 0;

/** The stored owner: system rows hold NULL, as no user owns them (owners are foreign keys to users). */
export const ownerColumn = (userId: number): number | null => (userId === SYSTEM_USER ? null : userId);

/** The owner as calls show it: 0 for a system row. */
export const ownerOfRow = (stored: number | null): number => stored ?? SYSTEM_USER;

/** Rows of any of `owners` (SYSTEM_USER: the system rows) in the owner column `column`. */
export function ownedBy(column: string, owners: readonly number[]): RawBuilder<SqlBool> {
  const users = owners.filter((id) => id !== SYSTEM_USER);
  const system = owners.includes(SYSTEM_USER) ? sql`${sql.ref(column)} is null` : sql`1 = 0`;
  const own = users.length > 0 ? sql`${sql.ref(column)} in (${sql.join(users)})` : sql`1 = 0`;
  return sql<SqlBool>`(${system} or ${own})`;
}

/** Owners whose rows `owner` may read: every owner for an admin (null), else the system and the user. */
export const readableOwners = (owner: Owner): number[] | null =>
  owner.kind === 'admin' ? null : [SYSTEM_USER, owner.userId];

/** Owners whose matches, filters and groups a row of `userId` may use. */
export const usableOwners = (userId: number): number[] =>
  userId === SYSTEM_USER ? [SYSTEM_USER] : [SYSTEM_USER, userId];

/** The owner of a new row: `system` (admins) makes a system row; `user_id` works as everywhere else. */
export async function ccCreator(
  db: Kysely<Database>,
  owner: Owner,
  body: { system?: boolean | undefined; user_id?: number | undefined },
): Promise<number> {
  if (!body.system) return creatorOf(db, owner, body.user_id);
  if (owner.kind !== 'admin') throw new AppError('forbidden', 'system: only an administrator makes system rows');
  if (body.user_id !== undefined) throw invalidParam('user_id', 'is not sent with system');
  return SYSTEM_USER;
}

/** A user may read system rows but not change them. */
export function ensureWritable(owner: Owner, rowUserId: number | null, label: string) {
  if (owner.kind !== 'admin' && ownerOfRow(rowUserId) === SYSTEM_USER) {
    throw new AppError('forbidden', `${label} is a system row: only an administrator changes it`);
  }
}

/** "3 (name), 5 (other)": at most five, then how many more. */
export function nameList(rows: readonly { id: number; name: string }[]): string {
  const shown = rows.slice(0, 5).map((row) => `${row.id} (${row.name})`);
  if (rows.length > 5) shown.push(`and ${rows.length - 5} more`);
  return shown.join(', ');
}

/** Like-pattern for a name search: wildcard characters are taken out. */
export const nameLike = (name: string) => `%${name.toLowerCase().replace(/[%_\\]/g, '')}%`;

/** A delete that lost a race with a new use: the foreign key refused it. */
export async function refusingUsed<T>(label: string, remove: () => Promise<T>): Promise<T> {
  try {
    return await remove();
  } catch (error) {
    if (/foreign key/i.test(String(error))) throw new AppError('conflict', `${label} was just put to use; try again`);
    throw error;
  }
}

export const iso = (ms: number) => new Date(ms).toISOString();
