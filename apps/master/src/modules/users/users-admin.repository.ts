import type { AdminUser, UserListQuery } from '@rampart/contracts';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { presentUser, type UserRow } from './users.repository.ts';

/** A broad search counts its matches up to here; its first pages stop after a few rows anyway. */
export const USER_SEARCH_COUNT_CAP = 10_000;

const SORT_COLUMNS = {
  id: 'users.id',
  account: 'users.username_key',
  email: 'users.email_key',
  created_at: 'users.created_at',
} as const;

/** `%`, `_` and `\` match themselves in the LIKE pattern (with `escape '\'`). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export const presentAdminUser = (row: UserRow & { group_name: string | null }): AdminUser => ({
  ...presentUser(row),
  certified: row.certified === 1,
  group_name: row.group_name,
});

/** The admin's user list: substring search over account, email, phone and name; filters; sort; one page. */
export async function listUsers(db: Kysely<Database>, query: UserListQuery, countCap = USER_SEARCH_COUNT_CAP) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  const term = query.search?.trim().toLowerCase() ?? '';
  const scoped = db
    .selectFrom('users')
    .$if(term !== '', (qb) =>
      qb.where(sql<SqlBool>`${sql.ref('users.search_key')} like ${`%${likeEscaped(term)}%`} escape '\\'`),
    )
    .$if(query.type !== undefined, (qb) => qb.where('users.type', '=', query.type ?? 0))
    .$if(query.group !== undefined, (qb) =>
      query.group === 0 ? qb.where('users.group_id', 'is', null) : qb.where('users.group_id', '=', query.group ?? 0),
    )
    .$if(query.state !== undefined, (qb) => qb.where('users.status', '=', query.state ?? ''))
    .$if(query.certified !== undefined, (qb) => qb.where('users.certified', '=', query.certified ? 1 : 0));
  const sort = query.sort ?? '-id';
  const column = SORT_COLUMNS[sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS];
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    scoped
      .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
      .selectAll('users')
      .select('user_groups.name as group_name')
      .orderBy(column, direction)
      .$if(column !== 'users.id', (qb) => qb.orderBy('users.id', direction))
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    term
      ? db
          .selectFrom(
            scoped
              .select(sql<number>`1`.as('one'))
              .limit(countCap + 1)
              .as('matched'),
          )
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      : scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  const list = rows.map(presentAdminUser);
  const total = Number(count.n);
  return term && total > countCap ? { list, total: countCap, total_capped: true } : { list, total };
}

export const findAdminUser = (db: Kysely<Database>, id: number) =>
  db
    .selectFrom('users')
    .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
    .selectAll('users')
    .select('user_groups.name as group_name')
    .where('users.id', '=', id)
    .executeTakeFirst();

/** The users of `ids` that exist. */
export const existingUserIds = async (db: Kysely<Database>, ids: readonly number[]) =>
  (await db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((row) => Number(row.id));

export async function setUsersStatus(
  db: Kysely<Database>,
  ids: readonly number[],
  status: 'enabled' | 'disabled',
  now: number,
) {
  const result = await db
    .updateTable('users')
    .set({ status, updated_at: now })
    .where('id', 'in', ids)
    .where('status', '!=', status)
    .executeTakeFirst();
  for (const id of ids) sessionCache.forgetUser(id);
  return Number(result.numUpdatedRows);
}

export async function setUsersGroup(db: Kysely<Database>, ids: readonly number[], groupId: number | null, now: number) {
  const result = await db
    .updateTable('users')
    .set({ group_id: groupId, updated_at: now })
    .where('id', 'in', ids)
    .executeTakeFirst();
  for (const id of ids) sessionCache.forgetUser(id);
  return Number(result.numUpdatedRows);
}

/** Ends every session of the users at once (their API keys stop with their status). */
export async function revokeSessionsOf(db: Kysely<Database>, ids: readonly number[], now: number) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
  for (const id of ids) sessionCache.forgetUser(id);
}

/** Marks the users' sites and streams as changed at `version`: what edges serve of them changes with the user's state. */
export async function touchServedBy(db: Kysely<Database>, ids: readonly number[], version: number) {
  await db.updateTable('sites').set({ version }).where('user_id', 'in', ids).execute();
  await db.updateTable('streams').set({ version }).where('user_id', 'in', ids).execute();
}

/** What belongs to a user and stops its deletion, by the name the refusal uses. */
const BELONGINGS = [
  ['sites', 'sites'],
  ['streams', 'streams'],
  ['certificates', 'certs'],
  ['site groups', 'site_groups'],
  ['stream groups', 'stream_groups'],
  ['DNS APIs', 'dnsapis'],
  ['CC matches', 'cc_matches'],
  ['CC filters', 'cc_filters'],
  ['CC rule groups', 'cc_rule_groups'],
  ['ACLs', 'acls'],
] as const;

/** `[label, count]` of each kind of thing the user owns, only those with at least one. */
export async function belongingsOf(db: Kysely<Database>, userId: number): Promise<[string, number][]> {
  const counts = await Promise.all(
    BELONGINGS.map(async ([label, table]) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return [label, Number(row.n)] as [string, number];
    }),
  );
  const keys = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return [...counts, ['API keys', Number(keys.n)] as [string, number]].filter(([, n]) => n > 0);
}

export async function deleteUserRow(db: Kysely<Database>, id: number) {
  await db.deleteFrom('users').where('id', '=', id).execute();
  sessionCache.forgetUser(id);
}
