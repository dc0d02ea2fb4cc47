import { randomInt } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  type RecoveryCodes,
  type TwoFactorProofBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { hashToken } from '../auth/tokens.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { checkManage } from '../users/manage-rules.ts';
import { findUserById, type UserRow } from '../users/users.repository.ts';
import { base32Decode, base32Encode, matchTotp, newTotpKey, otpauthUri } from './totp.ts';
import {
  advanceStep,
  countChallengeMiss,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  enableTwoFactor,
  findLiveChallenge,
  findTwoFactor,
  openChallenge,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
} from './two-factor.repository.ts';

export type SecondFactorMethod = 'totp' | 'recovery';

// No 0/o, 1/l/i: a code read off paper is typed right.
const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/** `xxxxx-xxxxx`: about 50 random bits, plenty for a code that works once behind a rate limit. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

async function issueRecoveryCodes(db: Kysely<Database>, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => hashToken(normalizeRecoveryCode(code))),
  );
  return codes;
}

export async function readTwoFactor(db: Kysely<Database>, userId: number): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(db, userId);
  const enabled = row?.enabled_at != null;
  return {
    enabled,
    pending: row !== undefined && !enabled,
    enabled_at: enabled ? new Date(Number(row?.enabled_at)).toISOString() : null,
    recovery_codes_left: enabled ? await countRecoveryCodesLeft(db, userId) : 0,
  };
}

/** A user with two-factor sign-in on: its key, for checking codes. */
async function enabledKey(db: Kysely<Database>, secrets: SecretBox, userId: number) {
  const row = await findTwoFactor(db, userId);
  if (row?.enabled_at == null) return null;
  return { key: base32Decode(secrets.open(row.secret_sealed)), lastStep: Number(row.last_step) };
}

/**
 * Checks a second factor: six digits are a TOTP code (each 30-second step once), anything else a
 * recovery code (each once). The method that matched, or null.
 */
export async function verifySecondFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  userId: number,
  code: string,
  now = Date.now(),
): Promise<SecondFactorMethod | null> {
  const enabled = await enabledKey(db, secrets, userId);
  if (!enabled) return null;
  const trimmed = code.trim();
  if (/^[0-9]{6}$/.test(trimmed)) {
    const step = matchTotp(enabled.key, trimmed, now, enabled.lastStep);
    return step !== null && (await advanceStep(db, userId, step)) ? 'totp' : null;
  }
  const normalized = normalizeRecoveryCode(trimmed);
  if (normalized.length !== 10) return null;
  return (await spendRecoveryCode(db, userId, hashToken(normalized), now)) ? 'recovery' : null;
}

/** POST /v1/user/two-factor: a new secret, shown once; on only after the confirming code. */
export async function startTwoFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  user: UserRow,
  password: string,
  now = Date.now(),
): Promise<TwoFactorSetup> {
  if (!(await verifyPassword(password, user.password_hash))) {
    throw new AppError('bad_credentials', 'password: the current password is wrong');
  }
  if ((await findTwoFactor(db, user.id))?.enabled_at != null) {
    throw new AppError('conflict', 'two-factor sign-in is on already; turn it off first to use a new app');
  }
  const secret = base32Encode(newTotpKey());
  await savePendingSecret(db, user.id, secrets.seal(secret), now);
  const settings = await loadSettings(db);
  return { secret, otpauth_uri: otpauthUri(settings.site_name || 'Rampart', user.username, secret) };
}

/** PUT /v1/user/two-factor: the app's code proves it holds the secret; answers the recovery codes, once. */
export async function confirmTwoFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  userId: number,
  code: string,
  now = Date.now(),
): Promise<RecoveryCodes> {
  const row = await findTwoFactor(db, userId);
  if (!row) throw new AppError('not_found', 'start setting up two-factor sign-in first');
  if (row.enabled_at != null) throw new AppError('conflict', 'two-factor sign-in is on already');
  const step = matchTotp(base32Decode(secrets.open(row.secret_sealed)), code, now);
  if (step === null) {
    throw new AppError('two_factor_invalid', "code: the code is wrong; check the phone's clock and try the next one");
  }
  return db.transaction().execute(async (trx) => {
    if (!(await enableTwoFactor(trx, userId, step, now))) {
      throw new AppError('conflict', 'two-factor sign-in is on already');
    }
    return { recovery_codes: await issueRecoveryCodes(trx, userId) };
  });
}

/**
 * Wrong proofs a signed-in user may give per quarter hour: a stolen session cannot guess its way
 * to turning two-factor sign-in off. Counted in the challenges table under an address no client has.
 */
export const PROOF_ATTEMPTS = 5;
const PROOF_WINDOW_MS = 15 * 60 * 1000;
const PROOF_KEY = 'proof';

async function countProofMiss(db: Kysely<Database>, userId: number, now: number) {
  const row = await findLiveChallenge(db, userId, PROOF_KEY, now);
  if (row) await countChallengeMiss(db, row.id, row.attempts + 1);
  else await openChallenge(db, userId, PROOF_KEY, now + PROOF_WINDOW_MS, 1);
}

/** A current code or the password: what turning it off and new recovery codes need. */
export async function checkProof(
  db: Kysely<Database>,
  secrets: SecretBox,
  user: UserRow,
  proof: TwoFactorProofBody,
  now = Date.now(),
) {
  if (!proof.code && !proof.password) {
    throw new AppError('invalid_param', 'code: is required: a code from the app, a recovery code, or the password');
  }
  const misses = (await findLiveChallenge(db, user.id, PROOF_KEY, now))?.attempts ?? 0;
  if (misses >= PROOF_ATTEMPTS) {
    throw new AppError('throttled', 'too many wrong codes or passwords; try again in 15 minutes');
  }
  if (proof.code) {
    if (!(await verifySecondFactor(db, secrets, user.id, proof.code, now))) {
      await countProofMiss(db, user.id, now);
      throw new AppError('two_factor_invalid', 'code: the code is wrong or was used already; wait for the next one');
    }
    return;
  }
  if (!(await verifyPassword(proof.password ?? '', user.password_hash))) {
    await countProofMiss(db, user.id, now);
    throw new AppError('bad_credentials', 'password: the current password is wrong');
  }
}

export async function newRecoveryCodes(
  db: Kysely<Database>,
  secrets: SecretBox,
  user: UserRow,
  proof: TwoFactorProofBody,
): Promise<RecoveryCodes> {
  if ((await findTwoFactor(db, user.id))?.enabled_at == null) {
    throw new AppError('not_found', 'two-factor sign-in is off');
  }
  await checkProof(db, secrets, user, proof);
  return db.transaction().execute(async (trx) => ({ recovery_codes: await issueRecoveryCodes(trx, user.id) }));
}

/** DELETE /v1/user/two-factor: off, with a current code or the password; an unconfirmed setup goes freely. */
export async function disableTwoFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  user: UserRow,
  proof: TwoFactorProofBody,
) {
  const row = await findTwoFactor(db, user.id);
  if (!row) throw new AppError('not_found', 'two-factor sign-in is off');
  if (row.enabled_at != null) await checkProof(db, secrets, user, proof);
  await deleteTwoFactor(db, user.id);
}

/** GET /v1/users/{id}/two-factor (admin): what the user's own page shows, for a user who exists. */
export async function readUserTwoFactor(db: Kysely<Database>, userId: number) {
  if (!(await findUserById(db, userId))) throw new AppError('not_found', `id: no user ${userId}`);
  return readTwoFactor(db, userId);
}

/**
 * DELETE /v1/users/{id}/two-factor (admin): for a user who lost the phone and the recovery codes;
 * the rules between admins (manage-rules.ts) decide whose the actor may reset.
 */
export async function resetTwoFactor(db: Kysely<Database>, actor: UserRow, userId: number) {
  const target = await findUserById(db, userId);
  if (!target) throw new AppError('not_found', `id: no user ${userId}`);
  await checkManage(db, actor, target);
  if (!(await deleteTwoFactor(db, userId))) throw new AppError('not_found', 'two-factor sign-in is off for this user');
}
