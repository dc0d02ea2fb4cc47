import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface NewOpLog {
  userId: number;
  impersonatorId: number | null;
  authMethod: 'session' | 'key';
  apiKeyId: string | null;
  method: string;
  route: string;
  action: string;
  targetIds: readonly string[];
  changes: unknown;
  ip: string;
  userAgent: string;
  result: string;
}

export async function insertOpLog(db: Kysely<Database>, entry: NewOpLog, now: number) {
  await db
    .insertInto('op_logs')
    .values({
      user_id: entry.userId,
      impersonator_id: entry.impersonatorId,
      auth_method: entry.authMethod,
      api_key_id: entry.apiKeyId,
      method: entry.method,
      route: entry.route.slice(0, 256),
      action: entry.action.slice(0, 128),
      target_ids: entry.targetIds.length > 0 ? `,${entry.targetIds.join(',')},` : '',
      changes: JSON.stringify(entry.changes ?? null),
      ip: entry.ip,
      user_agent: entry.userAgent.slice(0, 512),
      result: entry.result,
      created_at: now,
    })
    .execute();
}

export interface OpLogFilter {
  /** Only this user's entries (a user reading their own); undefined: everyone's. */
  userId?: number | undefined;
  /** Only what this admin did while signed in as a user. */
  impersonatorId?: number | undefined;
  action?: string | undefined;
  target?: string | undefined;
  ip?: string | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

function scopedOpLogs(db: Kysely<Database>, filter: OpLogFilter) {
  let scoped = db.selectFrom('op_logs');
  if (filter.userId !== undefined) scoped = scoped.where('op_logs.user_id', '=', filter.userId);
  if (filter.impersonatorId !== undefined) scoped = scoped.where('op_logs.impersonator_id', '=', filter.impersonatorId);
  if (filter.action) scoped = scoped.where('op_logs.action', '=', filter.action);
  // Targets are kept as ',1,2,'; the id text allows no LIKE wildcards (contracts: letters, digits, . : -).
  if (filter.target) scoped = scoped.where('op_logs.target_ids', 'like', `%,${filter.target},%`);
  if (filter.ip) scoped = scoped.where('op_logs.ip', '=', filter.ip);
  if (filter.fromMs !== undefined) scoped = scoped.where('op_logs.created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) scoped = scoped.where('op_logs.created_at', '<', filter.toMs);
  return scoped;
}

/** The entries with the account of their user and of the admin acting as them. */
const withAccounts = (scoped: ReturnType<typeof scopedOpLogs>) =>
  scoped
    .leftJoin('users', 'users.id', 'op_logs.user_id')
    .leftJoin('users as impersonators', 'impersonators.id', 'op_logs.impersonator_id')
    .selectAll('op_logs')
    .select(['users.username as account', 'impersonators.username as impersonator_account']);

/** Newest first, one page, with the total; the user's account name comes along for the list. */
export async function listOpLogs(db: Kysely<Database>, filter: OpLogFilter, page: number, limit: number) {
  const scoped = scopedOpLogs(db, filter);
  const [rows, count] = await Promise.all([
    withAccounts(scoped)
      .orderBy('op_logs.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select(sql<number | string | bigint>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export type OpLogRow = Awaited<ReturnType<typeof listOpLogs>>['rows'][number];

/** Newest first, `batch` rows a query (by id, so a long export never rereads or skips), at most `max`. */
export async function* eachOpLog(db: Kysely<Database>, filter: OpLogFilter, max: number, batch = 500) {
  let before: number | undefined;
  let left = max;
  while (left > 0) {
    let page = withAccounts(scopedOpLogs(db, filter));
    if (before !== undefined) page = page.where('op_logs.id', '<', before);
    const rows = await page.orderBy('op_logs.id', 'desc').limit(Math.min(batch, left)).execute();
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < Math.min(batch, left)) return;
    before = Number(last.id);
    left -= rows.length;
  }
}
