import { describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT_PARAMS, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('verifies the password it hashed and rejects another, case sensitively', async () => {
    const stored = await hashPassword('Secret-1', SCRYPT_PARAMS);
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('Secret-1', stored)).toBe(true);
    expect(await verifyPassword('secret-1', stored)).toBe(false);
  });

  it('hashes at a lower cost inside the test suite only, and verifies either cost', async () => {
    const cheap = await hashPassword('Secret-1');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('Secret-1', cheap)).toBe(true);
  });

  it('salts each hash, so equal passwords store differently', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });

  it('rejects malformed stored values instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });
});
