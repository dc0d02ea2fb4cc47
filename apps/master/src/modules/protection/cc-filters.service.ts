import type { CreateCcFilterBody, FilterSettings, FilterType, UpdateCcFilterBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import {
  deleteFilters,
  type FilterParams,
  filterParams,
  findFilters,
  insertFilter,
  presentFilter,
  updateFilter,
} from './cc-filters.repository.ts';
import { ccCreator, ensureWritable, nameList, refusingUsed } from './cc-owner.ts';
import { groupsUsing } from './cc-rule-groups.repository.ts';

type ParamName = keyof FilterParams;
const PARAMS: readonly ParamName[] = ['requests', 'seconds', 'per', 'valid_seconds', 'delay_ms'];
const PARAMS_OF: Record<FilterType, readonly ParamName[]> = {
  rate: ['requests', 'seconds', 'per'],
  js: ['valid_seconds'],
  redirect: ['valid_seconds'],
  captcha: ['valid_seconds'],
  delay: ['delay_ms'],
};
export const DEFAULT_VALID_SECONDS = 3600;

/**
 * The settings of a filter of `type`: what was sent (which must apply to the type) over what was
 * stored (kept only where it applies), with defaults; what the type needs must be there.
 */
export function filterOf(name: string, type: FilterType, sent: FilterParams, stored: FilterParams): FilterSettings {
  const applies = PARAMS_OF[type];
  const params: FilterParams = {};
  for (const key of PARAMS) {
    if (sent[key] !== undefined && !applies.includes(key))
      throw invalidParam(key, `is not a setting of a ${type} filter`);
    const value = sent[key] ?? stored[key];
    if (value !== undefined && applies.includes(key)) Object.assign(params, { [key]: value });
  }
  if (type === 'rate') {
    if (params.requests === undefined) throw invalidParam('requests', 'is required for a rate filter');
    if (params.seconds === undefined) throw invalidParam('seconds', 'is required for a rate filter');
    params.per ??= 'ip';
  } else if (type === 'delay') {
    if (params.delay_ms === undefined) throw invalidParam('delay_ms', 'is required for a delay filter');
  } else {
    params.valid_seconds ??= DEFAULT_VALID_SECONDS;
  }
  return { name, type, ...params };
}

const paramsOf = (body: FilterParams): FilterParams => {
  const params: FilterParams = {};
  for (const key of PARAMS) if (body[key] !== undefined) Object.assign(params, { [key]: body[key] });
  return params;
};

/** A new filter is used by nothing yet: the edges need not hear of it. */
export async function createFilter(db: Kysely<Database>, owner: Owner, body: CreateCcFilterBody) {
  const userId = await ccCreator(db, owner, body);
  const settings = filterOf(body.name, body.type, paramsOf(body), {});
  return presentFilter(await insertFilter(db, userId, settings, Date.now()));
}

export async function editFilter(db: Kysely<Database>, owner: Owner, id: number, body: UpdateCcFilterBody) {
  const [row] = await findFilters(db, owner, [id]);
  if (!row) throw new AppError('not_found', `filter ${id} does not exist`);
  ensureWritable(owner, row.user_id, `filter ${id}`);
  const settings = filterOf(
    body.name ?? row.name,
    body.type ?? (row.type as FilterType),
    paramsOf(body),
    filterParams(row),
  );
  return presentFilter(await changeConfig(db, (trx) => updateFilter(trx, id, settings, Date.now())));
}

/** All or none: each must be the caller's to change and used by no rule group. */
export async function removeFilters(db: Kysely<Database>, owner: Owner, ids: readonly number[]) {
  const rows = await findFilters(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: filter ${missing.join(', ')} does not exist`);
  for (const row of rows) ensureWritable(owner, row.user_id, `filter ${row.id}`);
  const users = await groupsUsing(db, 'filter_id', ids);
  const [first] = users;
  if (first) {
    const groups = users.filter((user) => user.used_id === first.used_id);
    throw new AppError(
      'conflict',
      `filter ${first.used_id} is used by rule group ${nameList(groups)}; change them first`,
    );
  }
  await refusingUsed('a filter', () => changeConfig(db, (trx) => deleteFilters(trx, ids)));
}
