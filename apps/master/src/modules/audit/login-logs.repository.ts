import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface LoginLogFilter {
  userId?: number | undefined;
  accountKey?: string | undefined;
  ip?: string | undefined;
  /** ok, or the reason of a failure. */
  result?: string | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** Sign-in attempts, newest first, one page, with the total. */
export async function listLoginAttempts(db: Kysely<Database>, filter: LoginLogFilter, page: number, limit: number) {
  let scoped = db.selectFrom('login_attempts');
  if (filter.userId !== undefined) scoped = scoped.where('user_id', '=', filter.userId);
  if (filter.accountKey) scoped = scoped.where('account_key', '=', filter.accountKey);
  if (filter.ip) scoped = scoped.where('ip', '=', filter.ip);
  if (filter.result === 'ok') scoped = scoped.where('success', '=', 1);
  else if (filter.result) scoped = scoped.where('success', '=', 0).where('reason', '=', filter.result);
  if (filter.fromMs !== undefined) scoped = scoped.where('created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) scoped = scoped.where('created_at', '<', filter.toMs);
  const [rows, count] = await Promise.all([
    scoped
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select(sql<number | string | bigint>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
