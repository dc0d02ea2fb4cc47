import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** System settings live in the spec's Config entity under scope `global-0`, type `system`. */
const SYSTEM = { scope_name: 'global', scope_id: 0, type: 'system' } as const;

export async function readSystemConfigs(db: Kysely<Database>): Promise<Map<string, unknown>> {
  const rows = await db
    .selectFrom('configs')
    .select(['name', 'value'])
    .where('scope_name', '=', SYSTEM.scope_name)
    .where('scope_id', '=', SYSTEM.scope_id)
    .where('type', '=', SYSTEM.type)
    .execute();
  return new Map(rows.map((row) => [row.name, JSON.parse(row.value) as unknown]));
}

/** The stored JSON text of one system config, as a statement or a subquery; its values in bind order. */
export const systemConfigText = (db: Kysely<Database>, name: string) =>
  db
    .selectFrom('configs')
    .select('value')
    .where('scope_name', '=', SYSTEM.scope_name)
    .where('scope_id', '=', SYSTEM.scope_id)
    .where('type', '=', SYSTEM.type)
    .where('name', '=', name);
export const systemConfigTextValues = (name: string) => [SYSTEM.scope_name, SYSTEM.scope_id, SYSTEM.type, name];

export async function writeSystemConfig(db: Kysely<Database>, name: string, value: unknown, now: number) {
  await db
    .insertInto('configs')
    .values({ ...SYSTEM, name, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['scope_name', 'scope_id', 'type', 'name'])
        .doUpdateSet({ value: JSON.stringify(value), updated_at: now }),
    )
    .execute();
}

/** Saves a setting only where none is stored yet (an operator's choice, or a fixture's, stays). */
export async function seedSystemConfig(db: Kysely<Database>, name: string, value: unknown, now: number) {
  await db
    .insertInto('configs')
    .values({ ...SYSTEM, name, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.columns(['scope_name', 'scope_id', 'type', 'name']).doNothing())
    .execute();
}
