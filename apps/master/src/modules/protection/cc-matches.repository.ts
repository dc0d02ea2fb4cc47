import type { CcListQuery, CcMatch, Condition } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CcMatchesTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { findOwned, listOwned } from './cc-owned.repository.ts';
import { iso, ownerColumn, ownerOfRow } from './cc-owner.ts';

export type CcMatchRow = Selectable<CcMatchesTable>;

export const presentMatch = (row: CcMatchRow): CcMatch => ({
  id: row.id,
  user_id: ownerOfRow(row.user_id),
  name: row.name,
  conditions: JSON.parse(row.conditions) as Condition[],
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function listMatches(db: Kysely<Database>, owner: Owner, query: CcListQuery) {
  const { rows, total } = await listOwned(db, 'cc_matches', owner, query);
  return { list: rows.map((row) => ({ ...presentMatch(row), user_account: row.user_account })), total };
}

/** The rows among `ids` the caller may read. */
export const findMatches = (db: Kysely<Database>, owner: Owner, ids: readonly number[]) =>
  findOwned(db, 'cc_matches', owner, ids);

export interface MatchRecord {
  name: string;
  conditions: Condition[];
}

export const insertMatch = (db: Kysely<Database>, userId: number, record: MatchRecord, now: number) =>
  db
    .insertInto('cc_matches')
    .values({
      user_id: ownerColumn(userId),
      name: record.name,
      conditions: JSON.stringify(record.conditions),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateMatch = (db: Kysely<Database>, id: number, record: MatchRecord, now: number) =>
  db
    .updateTable('cc_matches')
    .set({ name: record.name, conditions: JSON.stringify(record.conditions), updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export async function deleteMatches(db: Kysely<Database>, ids: readonly number[]) {
  await db.deleteFrom('cc_matches').where('id', 'in', ids).execute();
}
