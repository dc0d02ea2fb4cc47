import { SiteSettings } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Database } from '../../db/schema.ts';

const fields = SiteSettings.properties;

/** What a user may preset for new sites; HTTPS needs a certificate per site, so it is not a default. */
export const SiteDefaults = Type.Object(
  {
    balance: Type.Optional(fields.balance),
    origin_protocol: Type.Optional(fields.origin_protocol),
    http2: Type.Optional(fields.http2),
    websocket: Type.Optional(fields.websocket),
    gzip: Type.Optional(fields.gzip),
    request_headers: Type.Optional(fields.request_headers),
    response_headers: Type.Optional(fields.response_headers),
    cache_rules: Type.Optional(fields.cache_rules),
  },
  { additionalProperties: false },
);
export type SiteDefaults = Static<typeof SiteDefaults>;

export const UserConfigs = Type.Object({ site_defaults: SiteDefaults }, { additionalProperties: false });
export type UserConfigs = Static<typeof UserConfigs>;

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
