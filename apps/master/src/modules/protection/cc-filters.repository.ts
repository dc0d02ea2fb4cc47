import type { CcFilter, CcListQuery, FilterSettings, FilterType } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CcFiltersTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { findOwned, listOwned } from './cc-owned.repository.ts';
import { iso, ownerColumn, ownerOfRow } from './cc-owner.ts';

export type CcFilterRow = Selectable<CcFiltersTable>;
/** The settings of a filter besides its name and type. */
export type FilterParams = Omit<FilterSettings, 'name' | 'type'>;

export const filterParams = (row: CcFilterRow) => JSON.parse(row.settings) as FilterParams;

/** As the edge runs it (EdgeRuleGroup lines): name, type and the type's settings. */
export const filterSettings = (row: CcFilterRow): FilterSettings => ({
  name: row.name,
  type: row.type as FilterType,
  ...filterParams(row),
});

export const presentFilter = (row: CcFilterRow): CcFilter => ({
  id: row.id,
  user_id: ownerOfRow(row.user_id),
  ...filterSettings(row),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function listFilters(db: Kysely<Database>, owner: Owner, query: CcListQuery) {
  const { rows, total } = await listOwned(db, 'cc_filters', owner, query);
  return { list: rows.map((row) => ({ ...presentFilter(row), user_account: row.user_account })), total };
}

/** The rows among `ids` the caller may read. */
export const findFilters = (db: Kysely<Database>, owner: Owner, ids: readonly number[]) =>
  findOwned(db, 'cc_filters', owner, ids);

const columns = (settings: FilterSettings) => {
  const { name, type, ...params } = settings;
  return { name, type, settings: JSON.stringify(params) };
};

export const insertFilter = (db: Kysely<Database>, userId: number, settings: FilterSettings, now: number) =>
  db
    .insertInto('cc_filters')
    .values({ user_id: ownerColumn(userId), ...columns(settings), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateFilter = (db: Kysely<Database>, id: number, settings: FilterSettings, now: number) =>
  db
    .updateTable('cc_filters')
    .set({ ...columns(settings), updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export async function deleteFilters(db: Kysely<Database>, ids: readonly number[]) {
  await db.deleteFrom('cc_filters').where('id', 'in', ids).execute();
}
