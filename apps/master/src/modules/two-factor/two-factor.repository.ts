import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Every query here is keyed by the user id the service hands in: a user only ever reaches their own rows. */
export const findTwoFactor = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** A new secret awaiting confirmation replaces an unconfirmed one; a confirmed one is never replaced here. */
export async function savePendingSecret(db: Kysely<Database>, userId: number, sealed: string, now: number) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
    await trx
      .insertInto('two_factor')
      .values({ user_id: userId, secret_sealed: sealed, enabled_at: null, created_at: now })
      .execute();
  });
}

/** Turns it on, with the step of the confirming code as the newest used; false if it was on already. */
export async function enableTwoFactor(db: Kysely<Database>, userId: number, step: number, now: number) {
  const result = await db
    .updateTable('two_factor')
    .set({ enabled_at: now, last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a code's step as used; false when that step or a later one was used already (a replay, or a race). */
export async function advanceStep(db: Kysely<Database>, userId: number, step: number) {
  const result = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(db: Kysely<Database>, userId: number, hashes: readonly string[]) {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

export const countRecoveryCodesLeft = async (db: Kysely<Database>, userId: number) =>
  Number(
    (
      await db
        .selectFrom('two_factor_recovery_codes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Spends a recovery code; false when it is not one of the user's or was spent (two sign-ins at once: one wins). */
export async function spendRecoveryCode(db: Kysely<Database>, userId: number, codeHash: string, now: number) {
  const result = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the secret, the recovery codes and any awaited sign-in; true when there was a secret. */
export async function deleteTwoFactor(db: Kysely<Database>, userId: number) {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    const result = await trx.deleteFrom('two_factor').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** A sign-in from `ip` whose password was proven and whose code is awaited (one per user and address). */
export async function openChallenge(db: Kysely<Database>, userId: number, ip: string, expiresAt: number, attempts = 0) {
  await db.transaction().execute(async (trx) => {
    await dropChallenges(trx, userId, ip);
    await trx
      .insertInto('two_factor_challenges')
      .values({ user_id: userId, ip, expires_at: expiresAt, attempts })
      .execute();
  });
}

export const findLiveChallenge = (db: Kysely<Database>, userId: number, ip: string, now: number) =>
  db
    .selectFrom('two_factor_challenges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();

export async function countChallengeMiss(db: Kysely<Database>, id: number, attempts: number) {
  await db.updateTable('two_factor_challenges').set({ attempts }).where('id', '=', id).execute();
}

export async function dropChallenges(db: Kysely<Database>, userId: number, ip?: string) {
  let query = db.deleteFrom('two_factor_challenges').where('user_id', '=', userId);
  if (ip !== undefined) query = query.where('ip', '=', ip);
  await query.execute();
}
