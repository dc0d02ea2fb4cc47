import type { SiteDefaults } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

// Stored in the spec's Config entity under the user's own scope.
const key = (userId: number) => ({ scope_name: 'user', scope_id: userId, type: 'site', name: 'defaults' });

export async function readSiteDefaults(db: Kysely<Database>, userId: number): Promise<SiteDefaults> {
  const { scope_name, scope_id, type, name } = key(userId);
  const row = await db
    .selectFrom('configs')
    .select('value')
    .where('scope_name', '=', scope_name)
    .where('scope_id', '=', scope_id)
    .where('type', '=', type)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as SiteDefaults) : {};
}

export async function writeSiteDefaults(db: Kysely<Database>, userId: number, defaults: SiteDefaults): Promise<void> {
  const value = JSON.stringify(defaults);
  await db
    .insertInto('configs')
    .values({ ...key(userId), value, updated_at: Date.now() })
    .onConflict((oc) =>
      oc.columns(['scope_name', 'scope_id', 'type', 'name']).doUpdateSet({ value, updated_at: Date.now() }),
    )
    .execute();
}
