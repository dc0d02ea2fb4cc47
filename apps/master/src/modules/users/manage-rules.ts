import { PERMISSIONS } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { accessOf, holds } from '../../plugins/route-policy.ts';
import type { UserRow } from './user-row.ts';

/** The account an admin acts on: enough of its row to weigh it. */
export type ManagedAccount = Pick<UserRow, 'id' | 'username' | 'type' | 'access'>;

/** What a call does to an account, as far as the rules care. */
export interface AccountChange {
  /** The type the account has after the call (a new account: the type it is made with). */
  type?: number | undefined;
  /** The codes the call gives the account. */
  access?: readonly string[] | undefined;
  /** The call deletes the account. */
  deletes?: boolean;
}

/**
 * The root admin: the first admin, made on an empty database (first-admin.ts). Nobody else may
 * change it and it cannot change its own type, access or state, so it stays the oldest admin.
 */
export async function rootAdminId(db: Kysely<Database>): Promise<number | null> {
  const row = await db.selectFrom('users').select('id').where('type', '=', 1).orderBy('id').limit(1).executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Why `actor` (an admin) may not make `change` to `target` (null: a new account), or null when it may.
 * The one place the rules between admins live, so that every path (edit, batch, delete, two-factor
 * reset, impersonation) weighs them alike:
 * - nobody but the root admin touches the root admin;
 * - nobody changes anything of an admin holding a code they lack (password, two-factor, access,
 *   group, state), or a narrowed account could widen itself through another;
 * - only an admin holding admin:sys makes or unmakes an admin (type 1), deleting one included;
 * - an admin hands out only codes they hold.
 */
export function manageRefusal(
  actor: UserRow,
  target: ManagedAccount | null,
  change: AccountChange,
  rootId: number | null,
): string | null {
  if (target && target.id === rootId && actor.id !== rootId) {
    return `id: ${target.username} is the root admin; only the root admin changes it`;
  }
  const held = new Set(accessOf(actor));
  if (target?.type === 1) {
    const lacked = (JSON.parse(target.access) as string[]).filter((code) => !held.has(code));
    if (lacked.length > 0) return `id: ${target.username} holds ${lacked.join(', ')}, which you do not hold`;
  }
  const wasAdmin = target?.type === 1;
  const isAdmin = change.deletes ? false : (change.type ?? target?.type) === 1;
  if (wasAdmin !== isAdmin && !holds(actor, [PERMISSIONS.adminSys])) {
    return `type: only an admin holding ${PERMISSIONS.adminSys} makes or unmakes an admin`;
  }
  const missing = (change.access ?? []).filter((code) => !held.has(code));
  if (missing.length > 0) return `access: you cannot grant ${missing.join(', ')}`;
  return null;
}

/** Refuses, as forbidden, a change `actor` may not make to `target` (null: a new account). */
export async function checkManage(
  db: Kysely<Database>,
  actor: UserRow,
  target: ManagedAccount | null,
  change: AccountChange = {},
): Promise<void> {
  const refusal = manageRefusal(actor, target, change, await rootAdminId(db));
  if (refusal) throw new AppError('forbidden', refusal);
}

/** The same for many accounts at once (a batch), weighing the root admin once. */
export async function checkManageAll(
  db: Kysely<Database>,
  actor: UserRow,
  targets: readonly ManagedAccount[],
  change: AccountChange = {},
): Promise<void> {
  const rootId = await rootAdminId(db);
  for (const target of targets) {
    const refusal = manageRefusal(actor, target, change, rootId);
    if (refusal) throw new AppError('forbidden', refusal);
  }
}
