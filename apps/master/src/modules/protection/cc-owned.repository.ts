import type { CcListQuery } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { nameLike, ownedBy, readableOwners } from './cc-owner.ts';

/** The tables of matches, filters and rule groups: owned rows, system rows readable by everyone. */
type CcTable = 'cc_matches' | 'cc_filters' | 'cc_rule_groups';

/** A listed row with its owner's account name (null for system rows). */
export type WithOwnerAccount<Row> = Row & { user_account: string | null };

/** One page of the rows `owner` may read, newest first, with the owners' account names and the total. */
export async function listOwned<T extends CcTable>(
  db: Kysely<Database>,
  table: T,
  owner: Owner,
  query: CcListQuery,
): Promise<{ rows: WithOwnerAccount<Selectable<Database[T]>>[]; total: number }> {
  const owners = readableOwners(owner);
  const { page = 1, limit = 20, name, user_id } = query;
  const scoped = db
    .selectFrom(`${table as CcTable} as owned`)
    .$if(owners !== null, (qb) => qb.where(ownedBy('owned.user_id', owners ?? [])))
    .$if(user_id !== undefined, (qb) => qb.where(ownedBy('owned.user_id', [user_id ?? 0])))
    .$if(!!name, (qb) => qb.where((eb) => eb(eb.fn('lower', ['owned.name']), 'like', nameLike(name ?? ''))));
  const [rows, count] = await Promise.all([
    scoped
      .leftJoin('users', 'users.id', 'owned.user_id')
      .selectAll('owned')
      .select('users.username as user_account')
      .orderBy('owned.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as WithOwnerAccount<Selectable<Database[T]>>[], total: Number(count.n) };
}

/** The rows among `ids` the caller may read. */
export async function findOwned<T extends CcTable>(
  db: Kysely<Database>,
  table: T,
  owner: Owner,
  ids: readonly number[],
): Promise<Selectable<Database[T]>[]> {
  const owners = readableOwners(owner);
  const rows = await db
    .selectFrom(table as CcTable)
    .selectAll()
    .where('id', 'in', ids)
    .$if(owners !== null, (qb) => qb.where(ownedBy('user_id', owners ?? [])))
    .execute();
  return rows as Selectable<Database[T]>[];
}
