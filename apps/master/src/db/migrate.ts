import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { Dialect } from './database.ts';
import { accounts } from './migrations/2026-11-21T0900-accounts.ts';
import type { Database } from './schema.ts';

/** Every migration, by its timestamped name. Landed migrations are frozen: add new ones, never edit. */
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '2026-11-21T0900-accounts': accounts(dialect),
});

export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
