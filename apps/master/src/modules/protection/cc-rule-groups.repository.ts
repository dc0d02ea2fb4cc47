import type { CcListQuery, CcRuleGroup, RuleAction, RuleLine } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CcRuleGroupsTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { findOwned, listOwned } from './cc-owned.repository.ts';
import { iso, ownerColumn, ownerOfRow } from './cc-owner.ts';

export type CcRuleGroupRow = Selectable<CcRuleGroupsTable>;

export const presentGroup = (row: CcRuleGroupRow, rules: RuleLine[]): CcRuleGroup => ({
  id: row.id,
  user_id: ownerOfRow(row.user_id),
  name: row.name,
  is_default: row.is_default === 1,
  rules,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The lines of the groups, in order, by group id. */
export async function ruleLines(db: Kysely<Database>, groupIds: readonly number[]) {
  const byGroup = new Map<number, RuleLine[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .selectFrom('cc_rule_lines')
    .selectAll()
    .where('group_id', 'in', groupIds)
    .orderBy('group_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    byGroup.get(row.group_id)?.push({
      match_id: row.match_id,
      filter_id: row.filter_id,
      action: row.action as RuleAction,
      ban_seconds: row.ban_seconds,
    });
  }
  return byGroup;
}

export async function presentGroups(db: Kysely<Database>, rows: readonly CcRuleGroupRow[]) {
  const lines = await ruleLines(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentGroup(row, lines.get(row.id) ?? []));
}

export async function listGroups(db: Kysely<Database>, owner: Owner, query: CcListQuery) {
  const { rows, total } = await listOwned(db, 'cc_rule_groups', owner, query);
  const groups = await presentGroups(db, rows);
  return { list: groups.map((group, at) => ({ ...group, user_account: rows[at]?.user_account ?? null })), total };
}

/** The groups among `ids` the caller may read. */
export const findGroups = (db: Kysely<Database>, owner: Owner, ids: readonly number[]) =>
  findOwned(db, 'cc_rule_groups', owner, ids);

/** The system group sites without a rule group use, if there is one. */
export const defaultGroupId = async (db: Kysely<Database>) =>
  (
    await db
      .selectFrom('cc_rule_groups')
      .select('id')
      .where('is_default', '=', 1)
      .where('user_id', 'is', null)
      .orderBy('id')
      .executeTakeFirst()
  )?.id ?? null;

export interface GroupRecord {
  name: string;
  rules: RuleLine[];
  isDefault: boolean;
}

async function replaceLines(db: Kysely<Database>, groupId: number, rules: readonly RuleLine[]) {
  await db.deleteFrom('cc_rule_lines').where('group_id', '=', groupId).execute();
  if (rules.length === 0) return;
  await db
    .insertInto('cc_rule_lines')
    .values(rules.map((rule, position) => ({ group_id: groupId, position, ...rule })))
    .execute();
}

/** Only one group is the default: marking one unmarks the others. */
async function markDefault(db: Kysely<Database>, groupId: number, isDefault: boolean) {
  if (isDefault) await db.updateTable('cc_rule_groups').set({ is_default: 0 }).where('id', '!=', groupId).execute();
}

export async function insertGroup(db: Kysely<Database>, userId: number, record: GroupRecord, now: number) {
  const row = await db
    .insertInto('cc_rule_groups')
    .values({
      user_id: ownerColumn(userId),
      name: record.name,
      is_default: record.isDefault ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await markDefault(db, row.id, record.isDefault);
  await replaceLines(db, row.id, record.rules);
  return presentGroup(row, record.rules);
}

export async function updateGroup(db: Kysely<Database>, id: number, record: GroupRecord, now: number) {
  const row = await db
    .updateTable('cc_rule_groups')
    .set({ name: record.name, is_default: record.isDefault ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await markDefault(db, row.id, record.isDefault);
  await replaceLines(db, row.id, record.rules);
  return presentGroup(row, record.rules);
}

/** Their lines go with them (foreign key cascade). */
export async function deleteGroups(db: Kysely<Database>, ids: readonly number[]) {
  await db.deleteFrom('cc_rule_groups').where('id', 'in', ids).execute();
}

/** Groups whose lines use any of the matches (or filters): the rows that keep them from going. */
export const groupsUsing = (db: Kysely<Database>, column: 'match_id' | 'filter_id', ids: readonly number[]) =>
  db
    .selectFrom('cc_rule_lines')
    .innerJoin('cc_rule_groups', 'cc_rule_groups.id', 'cc_rule_lines.group_id')
    .select(['cc_rule_groups.id', 'cc_rule_groups.name', `cc_rule_lines.${column} as used_id`])
    .distinct()
    .where(`cc_rule_lines.${column}`, 'in', ids)
    .orderBy('cc_rule_groups.id')
    .execute();
