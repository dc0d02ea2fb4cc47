import type { AdminUser, UserListQuery } from '@rampart/contracts';
import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { searchRange } from './user-search.ts';
import { presentUser, type UserRow } from './users.repository.ts';

/** A search counts its matches up to here: past it the answer says `total_capped`. */
export const USER_SEARCH_COUNT_CAP = 1000;
/**
 * Term rows read to tell a narrow search from a broad one. Up to this many, the page is found from
 * the matches (few to sort); past it, by walking users in the list's order until a page is full.
 */
export const NARROW_SEARCH_TERMS = 1000;
/** The plain list (filters, no search) counts up to here: past it the answer says `total_capped`. */
export const USER_LIST_COUNT_CAP = 10_000;

const SORT_COLUMNS = {
  id: 'users.id',
  account: 'users.username_key',
  email: 'users.email_key',
  created_at: 'users.created_at',
} as const;

export const presentAdminUser = (row: UserRow & { group_name: string | null }): AdminUser => ({
  ...presentUser(row),
  certified: row.certified === 1,
  package_exempt: row.package_exempt === 1,
  group_name: row.group_name,
});

type Range = { from: string; to: string };
type UsersQuery = SelectQueryBuilder<Database, 'users', object>;

const inRange = (range: Range, column: 'term' | 't.term' = 'term') =>
  sql<SqlBool>`${sql.ref(column)} >= ${range.from} and ${sql.ref(column)} < ${range.to}`;

/** The type, group, state and certified filters of the list. */
function filtered(qb: UsersQuery, query: UserListQuery): UsersQuery {
  return qb
    .$if(query.type !== undefined, (q) => q.where('users.type', '=', query.type ?? 0))
    .$if(query.group !== undefined, (q) =>
      query.group === 0 ? q.where('users.group_id', 'is', null) : q.where('users.group_id', '=', query.group ?? 0),
    )
    .$if(query.state !== undefined, (q) => q.where('users.status', '=', query.state ?? ''))
    .$if(query.certified !== undefined, (q) => q.where('users.certified', '=', query.certified ? 1 : 0));
}

/**
 * The users whose terms start with the search when at most NARROW_SEARCH_TERMS term rows do (one
 * short index range), or null when more do: a broad search.
 */
async function narrowMatches(db: Kysely<Database>, range: Range): Promise<number[] | null> {
  const rows = await db
    .selectFrom('user_search_terms')
    .select('user_id')
    .where(inRange(range))
    .limit(NARROW_SEARCH_TERMS + 1)
    .execute();
  return rows.length > NARROW_SEARCH_TERMS ? null : [...new Set(rows.map((row) => Number(row.user_id)))];
}

const hasFilters = (query: UserListQuery) =>
  query.type !== undefined || query.group !== undefined || query.state !== undefined || query.certified !== undefined;

/**
 * The admin's user list: a search matches the start of the account, email (or its domain), phone or
 * name (or a word of it), any case; filters; sort; one page.
 *
 * A narrow search reads its few matching ids first and pages them as a list of keys: handed a join
 * instead, PostgreSQL walked most of the users' primary key to merge with a thousand ids. A broad
 * one walks users in the list's order until a page is full. Counts stop past a cap (the answer then
 * says `total_capped`): USER_SEARCH_COUNT_CAP for a search, USER_LIST_COUNT_CAP for the plain list,
 * so that no page counts 100k rows.
 */
export async function listUsers(db: Kysely<Database>, query: UserListQuery, dialect: Dialect) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  const range = query.search === undefined ? null : searchRange(query.search);
  const narrow = range ? await narrowMatches(db, range) : null;
  if (narrow?.length === 0) return { list: [], total: 0 };
  const scoped: UsersQuery = filtered(
    narrow
      ? db.selectFrom('users').where('users.id', 'in', narrow)
      : range
        ? db
            .selectFrom('users')
            .where(({ exists, selectFrom }) =>
              exists(
                selectFrom('user_search_terms as t')
                  .select(sql<number>`1`.as('one'))
                  .whereRef('t.user_id', '=', 'users.id')
                  .where(inRange(range, 't.term')),
              ),
            )
        : db.selectFrom('users'),
    query,
  );
  const sort = query.sort ?? '-id';
  const column = SORT_COLUMNS[sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS];
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const cap = narrow ? Number.POSITIVE_INFINITY : range ? USER_SEARCH_COUNT_CAP : USER_LIST_COUNT_CAP;
  const capped = (inner: SelectQueryBuilder<Database, never, { id: number }>) =>
    db
      .selectFrom(inner.limit(cap + 1).as('counted'))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
  const count = () => {
    if (narrow) return scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    if (!range) return capped(scoped.select('users.id') as never);
    // Every term has its user (the foreign key cascades), so without filters the terms alone count.
    // In user order PostgreSQL stops at the cap on a dense range (instead of hashing 20k rows) and
    // sorts a sparse one; SQLite would walk every user for that order, and stops at the cap unordered.
    if (!hasFilters(query))
      return capped(
        db
          .selectFrom('user_search_terms')
          .select('user_id as id')
          .distinct()
          .where(inRange(range))
          .$if(dialect === 'postgres', (qb) => qb.orderBy('user_id')) as never,
      );
    return capped(
      filtered(
        db
          .selectFrom('user_search_terms as t')
          .crossJoin('users')
          .whereRef('users.id', '=', 't.user_id')
          .where(inRange(range, 't.term')) as unknown as UsersQuery,
        query,
      )
        .select('users.id')
        .distinct() as never,
    );
  };
  const [rows, counted] = await Promise.all([
    scoped
      .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
      .selectAll('users')
      .select('user_groups.name as group_name')
      .orderBy(column, direction)
      .$if(column !== 'users.id', (qb) => qb.orderBy('users.id', direction))
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    count(),
  ]);
  const list = rows.map(presentAdminUser);
  const total = Number(counted.n);
  return total > cap ? { list, total: cap, total_capped: true } : { list, total };
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
/** The users of these ids that exist, with what the rules between admins weigh (manage-rules.ts). */
export const findManagedUsers = async (db: Kysely<Database>, ids: readonly number[]) =>
  (await db.selectFrom('users').select(['id', 'username', 'type', 'access']).where('id', 'in', ids).execute()).map(
    (row) => ({ ...row, id: Number(row.id) }),
  );

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

export async function setUsersPackageExempt(
  db: Kysely<Database>,
  ids: readonly number[],
  exempt: boolean,
  now: number,
) {
  const result = await db
    .updateTable('users')
    .set({ package_exempt: exempt ? 1 : 0, updated_at: now })
    .where('id', 'in', ids)
    .executeTakeFirst();
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

/** What belongs to a user and stops its deletion: table, then how the refusal names one and many. */
const BELONGINGS = [
  ['sites', 'site', 'sites'],
  ['streams', 'stream', 'streams'],
  ['certs', 'certificate', 'certificates'],
  ['site_groups', 'site group', 'site groups'],
  ['stream_groups', 'stream group', 'stream groups'],
  ['dnsapis', 'DNS API', 'DNS APIs'],
  ['cc_matches', 'CC match', 'CC matches'],
  ['cc_filters', 'CC filter', 'CC filters'],
  ['cc_rule_groups', 'CC rule group', 'CC rule groups'],
  ['acls', 'ACL', 'ACLs'],
  ['user_packages', 'package', 'packages'],
  // Orders are the ledger: a user who ever paid or was credited stays, disabled rather than deleted.
  ['orders', 'order', 'orders'],
] as const;

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the user owns, as the refusal names it ("2 sites", "1 API key"); empty when nothing. */
export async function belongingsOf(db: Kysely<Database>, userId: number): Promise<string[]> {
  const counts = await Promise.all(
    BELONGINGS.map(async ([table, one, many]) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { n: Number(row.n), text: counted(Number(row.n), one, many) };
    }),
  );
  const keys = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  counts.push({ n: Number(keys.n), text: counted(Number(keys.n), 'API key', 'API keys') });
  return counts.filter(({ n }) => n > 0).map(({ text }) => text);
}

export async function deleteUserRow(db: Kysely<Database>, id: number) {
  await db.deleteFrom('users').where('id', '=', id).execute();
  sessionCache.forgetUser(id);
}
