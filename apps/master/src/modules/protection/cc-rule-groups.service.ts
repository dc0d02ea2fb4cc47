import type { CreateCcRuleGroupBody, RuleLine, UpdateCcRuleGroupBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import { ccCreator, ensureWritable, nameList, ownedBy, ownerOfRow, SYSTEM_USER, usableOwners } from './cc-owner.ts';
import {
  deleteGroups,
  findGroups,
  type GroupRecord,
  insertGroup,
  ruleLines,
  updateGroup,
} from './cc-rule-groups.repository.ts';
import { sitesUsingGroups } from './site-protection.repository.ts';

/** Lines may use only matches and filters the group's owner may use: their own and system ones. */
async function checkRules(db: Kysely<Database>, userId: number, rules: readonly RuleLine[]) {
  if (rules.length === 0) return;
  const owners = usableOwners(userId);
  const usable = async (table: 'cc_matches' | 'cc_filters', ids: number[]) =>
    new Set(
      (await db.selectFrom(table).select('id').where('id', 'in', ids).where(ownedBy('user_id', owners)).execute()).map(
        (row) => row.id,
      ),
    );
  const matches = await usable(
    'cc_matches',
    rules.map((rule) => rule.match_id),
  );
  const filters = await usable(
    'cc_filters',
    rules.map((rule) => rule.filter_id),
  );
  for (const [index, rule] of rules.entries()) {
    if (!matches.has(rule.match_id))
      throw invalidParam(`rules/${index}/match_id`, `match ${rule.match_id} does not exist`);
    if (!filters.has(rule.filter_id)) {
      throw invalidParam(`rules/${index}/filter_id`, `filter ${rule.filter_id} does not exist`);
    }
  }
}

/** Only an admin marks the default group, and only a system group can be it. */
function checkDefault(owner: Owner, userId: number, isDefault: boolean | undefined) {
  if (isDefault === undefined) return;
  if (owner.kind !== 'admin')
    throw new AppError('forbidden', 'is_default: only an administrator sets the default group');
  if (isDefault && userId !== SYSTEM_USER)
    throw invalidParam('is_default', 'only a system rule group can be the default');
}

export async function createGroup(db: Kysely<Database>, owner: Owner, body: CreateCcRuleGroupBody) {
  const userId = await ccCreator(db, owner, body);
  checkDefault(owner, userId, body.is_default);
  const record: GroupRecord = { name: body.name, rules: body.rules ?? [], isDefault: body.is_default ?? false };
  await checkRules(db, userId, record.rules);
  // A new default group changes what sites without a group run.
  return changeConfig(db, (trx) => insertGroup(trx, userId, record, Date.now()));
}

export async function editGroup(db: Kysely<Database>, owner: Owner, id: number, body: UpdateCcRuleGroupBody) {
  const [row] = await findGroups(db, owner, [id]);
  if (!row) throw new AppError('not_found', `rule group ${id} does not exist`);
  ensureWritable(owner, row.user_id, `rule group ${id}`);
  checkDefault(owner, ownerOfRow(row.user_id), body.is_default);
  const record: GroupRecord = {
    name: body.name ?? row.name,
    rules: body.rules ?? (await ruleLines(db, [id])).get(id) ?? [],
    isDefault: body.is_default ?? row.is_default === 1,
  };
  await checkRules(db, ownerOfRow(row.user_id), record.rules);
  return changeConfig(db, (trx) => updateGroup(trx, id, record, Date.now()));
}

/** All or none: each must be the caller's to change, not the default, and used by no site. */
export async function removeGroups(db: Kysely<Database>, owner: Owner, ids: readonly number[]) {
  const rows = await findGroups(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: rule group ${missing.join(', ')} does not exist`);
  for (const row of rows) ensureWritable(owner, row.user_id, `rule group ${row.id}`);
  const fallback = rows.find((row) => row.is_default === 1);
  if (fallback) {
    throw new AppError(
      'conflict',
      `rule group ${fallback.id} is the default group of sites without one; make another group the default first`,
    );
  }
  const sites = await sitesUsingGroups(db, ids);
  const groupId = sites[0]?.groupIds[0];
  if (groupId !== undefined) {
    const users = sites.filter((site) => site.groupIds.includes(groupId));
    throw new AppError('conflict', `rule group ${groupId} is used by site ${nameList(users)}; change them first`);
  }
  await changeConfig(db, (trx) => deleteGroups(trx, ids));
}
