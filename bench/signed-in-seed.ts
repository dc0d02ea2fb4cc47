import { openDatabase } from '../apps/master/src/db/database.ts';
import { migrateToLatest } from '../apps/master/src/db/migrate.ts';
import { hashPassword } from '../apps/master/src/modules/auth/passwords.ts';
import { insertUser } from '../apps/master/src/modules/users/users.repository.ts';
import { seedSites } from './site-seed.ts';
import { tempDir } from './support.ts';

/** The ordinary user the signed-in benches call as. */
export const USER_ACCOUNT = 'bench-user';
export const USER_PASSWORD = 'bench-user-pass';

/** A SQLite data directory holding that user and, when `sites` > 0, that many sites of theirs. */
export async function seededDataDir(sites: number): Promise<string> {
  const dataDir = tempDir('rampart-bench-signed-in-');
  const database = openDatabase({ dataDir });
  await migrateToLatest(database);
  const user = await insertUser(
    database.db,
    { username: USER_ACCOUNT, passwordHash: await hashPassword(USER_PASSWORD), type: 2, access: [] },
    Date.now(),
  );
  if (sites > 0) await seedSites(database.db, database.dialect, user.id, sites);
  await database.close();
  return dataDir;
}
