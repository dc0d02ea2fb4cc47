import type { CcListQuery } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import { newestFirstPage } from '../../db/paging.ts';
import type { Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { nameLike, readableOwners } from './cc-owner.ts';

/** The tables of matches, filters and rule groups: owned rows, system rows readable by everyone. */
type CcTable = 'cc_matches' | 'cc_filters' | 'cc_rule_groups';

/** One page of the rows `owner` may read, newest first, with the total. */
export async function listOwned<T extends CcTable>(
  db: Kysely<Database>,
  table: T,
  owner: Owner,
  query: CcListQuery,
): Promise<{ rows: Selectable<Database[T]>[]; total: number }> {
  const owners = readableOwners(owner);
  const { page = 1, limit = 20, name, user_id } = query;
  const scoped = db
    .selectFrom(table as CcTable)
    .$if(owners !== null, (qb) => qb.where('user_id', 'in', owners ?? []))
    .$if(user_id !== undefined, (qb) => qb.where('user_id', '=', user_id ?? 0))
    .$if(!!name, (qb) => qb.where((eb) => eb(eb.fn('lower', ['name']), 'like', nameLike(name ?? ''))));
  const { rows, total } = await newestFirstPage(scoped, page, limit);
  return { rows: rows as Selectable<Database[T]>[], total };
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
    .$if(owners !== null, (qb) => qb.where('user_id', 'in', owners ?? []))
    .execute();
  return rows as Selectable<Database[T]>[];
}
