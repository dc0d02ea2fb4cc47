import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from './secrets.ts';

describe('secret box', () => {
  it('opens what it sealed, and nothing that was altered', () => {
    const box = secretBox(randomBytes(32));
    const sealed = box.seal('api-key-123');
    expect(sealed).not.toContain('api-key-123');
    expect(box.open(sealed)).toBe('api-key-123');
    const [v, iv, tag, body] = sealed.split('.');
    const altered = [v, iv, tag, Buffer.from(`x${body}`).toString('base64')].join('.');
    expect(() => box.open(altered)).toThrow();
    expect(() => secretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('makes a 0600 key file once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-secret-'));
    const key = loadSecretKey(dir, undefined);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey(dir, undefined).equals(key)).toBe(true);
    expect(() => loadSecretKey(dir, 'c2hvcnQ=')).toThrow('RAMPART_SECRET_KEY must be 32 bytes, base64-encoded');
  });
});
