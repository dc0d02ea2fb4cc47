import { randomBytes } from 'node:crypto';
import type { ApiKey, ApiKeyIssued, CreateApiKeyBody, UpdateApiKeyBody } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { cidrProblem } from '../protection/conditions.ts';
import {
  countKeysIssuedSince,
  findLiveKey,
  insertKey,
  revokeLiveKey,
  updateKeySettings,
} from './api-keys.repository.ts';

/** Keys a user may make (create or rotate) per hour: enough to fix a leak, too few to farm secrets. */
export const KEYS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const presentKey = (row: Selectable<ApiKeysTable>): ApiKey => ({
  key_id: row.key_id,
  scope: row.scope === 'write' ? 'write' : 'read',
  allow_ips: JSON.parse(row.allow_ips) as string[],
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: iso(row.last_used_at),
  last_used_ip: row.last_used_ip,
});

/** The schema shapes addresses loosely (IPv6 above all): each entry must really be one, and each once. */
function checkAllowIps(entries: readonly string[]): string[] {
  entries.forEach((entry, index) => {
    const problem = cidrProblem(entry);
    if (problem) throw invalidParam(`body/allow_ips/${index}`, problem);
  });
  return [...new Set(entries)];
}

async function issueKey(
  db: Kysely<Database>,
  userId: number,
  settings: { scope: 'read' | 'write'; allowIps: readonly string[] },
  now: number,
  replace: boolean,
): Promise<ApiKeyIssued> {
  const issued = await countKeysIssuedSince(db, userId, now - HOUR_MS);
  if (issued.count >= KEYS_PER_HOUR) {
    const minutes = Math.max(1, Math.ceil(((issued.first ?? now) + HOUR_MS - now) / 60_000));
    throw new AppError(
      'too_many_requests',
      `at most ${KEYS_PER_HOUR} API keys can be made an hour; you can make another in ${minutes} min`,
    );
  }
  const keyId = `ak_${randomBytes(8).toString('hex')}`;
  const secret = newToken();
  const token = `${keyId}.${secret}`;
  const row = await db
    .transaction()
    .execute(async (trx) => {
      // A creation never revokes: of two at once, the live-key index lets exactly one through.
      if (replace) await revokeLiveKey(trx, userId, now);
      return insertKey(trx, { userId, keyId, tokenHash: hashToken(token), ...settings }, now);
    })
    .catch((error: unknown) => {
      // Two calls at once: the live-key index lets one through; the other is told, not given a 500.
      if (isUniqueViolation(error))
        throw new AppError('conflict', 'another request changed your API key at the same time; try again');
      throw error;
    });
  return { ...presentKey(row), secret, token };
}

export async function readKey(db: Kysely<Database>, userId: number): Promise<ApiKey | null> {
  const row = await findLiveKey(db, userId);
  return row ? presentKey(row) : null;
}

export async function createKey(db: Kysely<Database>, userId: number, body: CreateApiKeyBody, now = Date.now()) {
  const allowIps = checkAllowIps(body.allow_ips ?? []);
  if (await findLiveKey(db, userId)) {
    throw new AppError('conflict', 'you already have an API key; rotate it (PUT) or delete it first');
  }
  return issueKey(db, userId, { scope: body.scope, allowIps }, now, false);
}

/** Changes scope and allow list; `rotate` replaces the key (new id and secret), the old one stops at once. */
export async function updateKey(
  db: Kysely<Database>,
  userId: number,
  body: UpdateApiKeyBody,
  now = Date.now(),
): Promise<ApiKeyIssued> {
  const current = await findLiveKey(db, userId);
  if (!current) throw new AppError('not_found', 'you have no API key; create one first');
  const settings = {
    scope: body.scope ?? (current.scope === 'write' ? 'write' : 'read'),
    allowIps: body.allow_ips ? checkAllowIps(body.allow_ips) : (JSON.parse(current.allow_ips) as string[]),
  } as const;
  if (body.rotate) return issueKey(db, userId, settings, now, true);
  return presentKey(await updateKeySettings(db, current.id, userId, settings));
}

export async function deleteKey(db: Kysely<Database>, userId: number, now = Date.now()) {
  if (!(await revokeLiveKey(db, userId, now))) throw new AppError('not_found', 'you have no API key');
}
