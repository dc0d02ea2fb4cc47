import { BlockList, isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordLoginAttempt } from '../auth/login-guard.ts';
import type { CachedSession } from '../auth/session-cache.ts';
import type { ApiKeyGrant } from './api-key-grant.ts';
import { findKeyByToken, markKeyUsed } from './api-keys.repository.ts';

/** `ak_` and 16 hex digits (the key id), a dot, and 256 random bits URL-safe (the secret). */
const KEY_TOKEN = /^ak_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/;

export const isKeyToken = (token: string) => KEY_TOKEN.test(token);

// Writing the last use on every call would cost a write per read: once a minute is enough to show.
const LAST_USED_EVERY_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/** An IPv4 client seen through an IPv6 socket (::ffff:203.0.113.5) as its IPv4 address. */
const plainIp = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

export function allowListOf(entries: readonly string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The live key of a token (hashed by the caller) with its enabled user; the caller caches it like a session. */
export async function resolveKeyToken(
  db: Kysely<Database>,
  tokenHash: string,
  client: { ip: string; now: number },
): Promise<CachedSession | null> {
  const row = await findKeyByToken(db, tokenHash);
  if (row?.status !== 'enabled') return null;
  const { key_row_id, key_id, key_scope, key_allow_ips, key_last_used_at, ...user } = row;
  const apiKey: ApiKeyGrant = {
    id: key_row_id,
    keyId: key_id,
    scope: key_scope === 'write' ? 'write' : 'read',
    allowList: allowListOf(JSON.parse(key_allow_ips) as string[]),
  };
  if (keyRefusal(apiKey, client.ip) === null && (key_last_used_at ?? 0) < client.now - LAST_USED_EVERY_MS) {
    await markKeyUsed(db, key_row_id, plainIp(client.ip), client.now);
    // The key's first use of the (UTC) day shows in the login log, with method 'key'.
    if (key_last_used_at === null || utcDay(key_last_used_at) < utcDay(client.now)) {
      const account = user.username;
      await recordLoginAttempt(db, {
        account,
        ip: plainIp(client.ip),
        userId: user.id,
        success: true,
        reason: '',
        method: 'key',
      });
    }
  }
  // A key has no session: id 0 ends none, and it lasts until it is rotated or deleted.
  return { user, sessionId: 0, expiresAt: Number.MAX_SAFE_INTEGER, apiKey };
}

const READS = new Set(['GET', 'HEAD']);
// A key never mints sessions or keys: that would outlive its scope and allow list.
const NOT_FOR_KEYS = new Set(['/v1/common/auth', '/v1/api-key']);

function keyRefusal(grant: ApiKeyGrant, ip: string): string | null {
  const address = plainIp(ip);
  if (grant.allowList && !grant.allowList.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) {
    return `this API key is not allowed from ${address}`;
  }
  return null;
}

/** Refuses what the key does not allow: another address, a write with a read key, session and key calls. */
export function checkKeyUse(grant: ApiKeyGrant, request: { ip: string; method: string; route: string }) {
  const refusal = keyRefusal(grant, request.ip);
  if (refusal) throw new AppError('forbidden', refusal);
  const read = READS.has(request.method);
  if (!read && grant.scope === 'read') throw new AppError('forbidden', 'this API key is read-only');
  if (!read && NOT_FOR_KEYS.has(request.route)) {
    throw new AppError('forbidden', 'sign in with a password to manage sessions and API keys');
  }
}
