import type { CreateCcMatchBody, UpdateCcMatchBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import { deleteMatches, findMatches, insertMatch, presentMatch, updateMatch } from './cc-matches.repository.ts';
import { ccCreator, ensureWritable, nameList, refusingUsed } from './cc-owner.ts';
import { groupsUsing } from './cc-rule-groups.repository.ts';
import { checkConditions } from './conditions.ts';

/** A new match is used by nothing yet: the edges need not hear of it. */
export async function createMatch(db: Kysely<Database>, owner: Owner, body: CreateCcMatchBody) {
  const userId = await ccCreator(db, owner, body);
  checkConditions(body.conditions, 'conditions');
  return presentMatch(await insertMatch(db, userId, { name: body.name, conditions: body.conditions }, Date.now()));
}

export async function editMatch(db: Kysely<Database>, owner: Owner, id: number, body: UpdateCcMatchBody) {
  const [row] = await findMatches(db, owner, [id]);
  if (!row) throw new AppError('not_found', `match ${id} does not exist`);
  ensureWritable(owner, row.user_id, `match ${id}`);
  const record = { name: body.name ?? row.name, conditions: body.conditions ?? presentMatch(row).conditions };
  checkConditions(record.conditions, 'conditions');
  return presentMatch(await changeConfig(db, (trx) => updateMatch(trx, id, record, Date.now())));
}

/** All or none: each must be the caller's to change and used by no rule group. */
export async function removeMatches(db: Kysely<Database>, owner: Owner, ids: readonly number[]) {
  const rows = await findMatches(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: match ${missing.join(', ')} does not exist`);
  for (const row of rows) ensureWritable(owner, row.user_id, `match ${row.id}`);
  const users = await groupsUsing(db, 'match_id', ids);
  const [first] = users;
  if (first) {
    const groups = users.filter((user) => user.used_id === first.used_id);
    throw new AppError(
      'conflict',
      `match ${first.used_id} is used by rule group ${nameList(groups)}; change them first`,
    );
  }
  await refusingUsed('a match', () => changeConfig(db, (trx) => deleteMatches(trx, ids)));
}
