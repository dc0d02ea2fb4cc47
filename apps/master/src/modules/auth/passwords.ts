import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with per-password salt, stored as `scrypt$N$r$p$salt$hash` so parameters can grow later.
export const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1 } as const;

/**
 * The test suite (Vitest sets `VITEST` in its processes, and the masters its browser tests start
 * inherit it) signs in thousands of times: there a hash costs N = 1024 instead of 16384, 16 times
 * less (~10 ms instead of ~150 ms on a loaded 2-core machine). Verification reads N from the
 * stored hash either way, so the code paths are the same.
 */
const PARAMS = process.env.VITEST ? { ...SCRYPT_PARAMS, N: 1024 } : SCRYPT_PARAMS;
const KEY_LENGTH = 32;

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

const derive = (password: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

export async function hashPassword(password: string, params: ScryptCost = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
