import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sessionCache } from '../auth/session-cache.ts';

export interface NewApiKey {
  userId: number;
  keyId: string;
  tokenHash: string;
  scope: 'read' | 'write';
  allowIps: readonly string[];
}

/** The user's live key (at most one: a partial unique index keeps it so). */
export const findLiveKey = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

/** The live key of a token hash with its user, in one query (as for session tokens). */
export const findKeyByToken = (db: Kysely<Database>, tokenHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select([
      'api_keys.id as key_row_id',
      'api_keys.key_id as key_id',
      'api_keys.scope as key_scope',
      'api_keys.allow_ips as key_allow_ips',
      'api_keys.last_used_at as key_last_used_at',
    ])
    .where('api_keys.token_hash', '=', tokenHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();

/** Keys made (created or rotated) by the user since a time, and when the first of them was: what the creation limit counts. */
export async function countKeysIssuedSince(
  db: Kysely<Database>,
  userId: number,
  since: number,
): Promise<{ count: number; first: number | null }> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('first')])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), first: row.first === null ? null : Number(row.first) };
}

export async function insertKey(db: Kysely<Database>, key: NewApiKey, now: number) {
  return db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      key_id: key.keyId,
      token_hash: key.tokenHash,
      scope: key.scope,
      allow_ips: JSON.stringify(key.allowIps),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateKeySettings(
  db: Kysely<Database>,
  rowId: number,
  userId: number,
  changes: { scope: 'read' | 'write'; allowIps: readonly string[] },
) {
  const row = await db
    .updateTable('api_keys')
    .set({ scope: changes.scope, allow_ips: JSON.stringify(changes.allowIps) })
    .where('id', '=', rowId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
  sessionCache.forgetUser(userId);
  return row;
}

/** Ends the user's live key; cached grants go at once, so the next request with it is refused. */
export async function revokeLiveKey(db: Kysely<Database>, userId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  sessionCache.forgetUser(userId);
  return Number(result.numUpdatedRows) > 0;
}

export async function markKeyUsed(db: Kysely<Database>, rowId: number, ip: string, now: number) {
  await db.updateTable('api_keys').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', rowId).execute();
}
