import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Makes a user an admin with the given access list, straight in the master's SQLite database: the
 * API that manages users (PUT /v1/users/{id}) comes with a later issue. The master caches sessions
 * for at most 2 s, so sign in after calling this.
 */
export const setUserRole = (dataDir: string, userId: number, type: 1 | 2, access: readonly string[]): void => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    database.prepare('UPDATE users SET type = ?, access = ? WHERE id = ?').run(type, JSON.stringify(access), userId);
  } finally {
    database.close();
  }
};
