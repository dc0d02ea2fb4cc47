import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretBox } from '../../secrets.ts';
import { createTestDatabase, DIALECTS } from '../../test/databases.ts';
import { checkSecretKey, SecretKeyMismatchError } from './secret-key-check.ts';

describe.each(DIALECTS)('the secret key check ($dialect)', (target) => {
  it("lets every master with the first master's key start, and stops one with another key", async () => {
    const database = await createTestDatabase(target, { migrated: true });
    try {
      const key = randomBytes(32);
      await checkSecretKey(database.db, secretBox(key));
      await checkSecretKey(database.db, secretBox(Buffer.from(key)));
      await expect(checkSecretKey(database.db, secretBox(randomBytes(32)))).rejects.toThrow(SecretKeyMismatchError);
      await expect(checkSecretKey(database.db, secretBox(randomBytes(32)))).rejects.toThrow(/RAMPART_SECRET_KEY/);
    } finally {
      await database.dispose();
    }
  });
});
