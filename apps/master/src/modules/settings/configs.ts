import {
  DEFAULT_SITE_PROTECTION,
  DEFAULT_UNKNOWN_HOST,
  PERMISSIONS,
  type Permission,
  UnknownHostSettings,
  WafDefaults,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Database } from '../../db/schema.ts';

/**
 * Typed entries of the spec's Config entity (`{scope_name}-{scope_id}-{type}-{name}`): each has a
 * schema, a default and the permission that reads and writes it. A stored value that no longer
 * fits its schema reads as the default.
 */
export interface ConfigDefinition<T extends TSchema = TSchema> {
  scope_name: string;
  scope_id: number;
  type: string;
  name: string;
  schema: T;
  fallback: Static<T>;
  permission: Permission;
  description: string;
  /** The edges serve with it: a change bumps the config version so that every node applies it. */
  edge: boolean;
}

const define = <T extends TSchema>(definition: ConfigDefinition<T>) => definition;

export const WAF_DEFAULTS = define({
  scope_name: 'global',
  scope_id: 0,
  type: 'waf',
  name: 'defaults',
  schema: WafDefaults,
  fallback: DEFAULT_SITE_PROTECTION.waf,
  permission: PERMISSIONS.adminConfig,
  description:
    'WAF settings new sites start with, and that inspect requests no site serves: {mode, paranoia, exclusions}',
  edge: true,
});

export const UNKNOWN_HOST = define({
  scope_name: 'global',
  scope_id: 0,
  type: 'edge',
  name: 'unknown_host',
  schema: UnknownHostSettings,
  fallback: DEFAULT_UNKNOWN_HOST,
  permission: PERMISSIONS.adminConfig,
  description:
    'Requests whose Host no site serves: {action: page (400/404 page) or close (no answer), waf: inspect them with the WAF defaults}',
  edge: true,
});

export const CONFIGS: readonly ConfigDefinition[] = [WAF_DEFAULTS, UNKNOWN_HOST];

export const configKey = (definition: ConfigDefinition) =>
  `${definition.scope_name}-${definition.scope_id}-${definition.type}-${definition.name}`;

const where = (definition: ConfigDefinition) => ({
  scope_name: definition.scope_name,
  scope_id: definition.scope_id,
  type: definition.type,
  name: definition.name,
});

const checkers = new WeakMap<TSchema, { Check(value: unknown): boolean }>();
const fits = (schema: TSchema, value: unknown) => {
  let checker = checkers.get(schema);
  if (!checker) {
    checker = Compile(schema);
    checkers.set(schema, checker);
  }
  return checker.Check(value);
};

/** The stored value (or the default) and when it was saved (null: never). */
export async function readConfig<T extends TSchema>(db: Kysely<Database>, definition: ConfigDefinition<T>) {
  const key = where(definition);
  const row = await db
    .selectFrom('configs')
    .select(['value', 'updated_at'])
    .where('scope_name', '=', key.scope_name)
    .where('scope_id', '=', key.scope_id)
    .where('type', '=', key.type)
    .where('name', '=', key.name)
    .executeTakeFirst();
  const stored: unknown = row ? JSON.parse(row.value) : undefined;
  if (row && fits(definition.schema, stored)) return { value: stored as Static<T>, updatedAt: row.updated_at };
  return { value: definition.fallback, updatedAt: null };
}

export async function writeConfig(db: Kysely<Database>, definition: ConfigDefinition, value: unknown, now: number) {
  const text = JSON.stringify(value);
  await db
    .insertInto('configs')
    .values({ ...where(definition), value: text, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['scope_name', 'scope_id', 'type', 'name']).doUpdateSet({ value: text, updated_at: now }),
    )
    .execute();
}

/** Back to the default. */
export async function resetConfig(db: Kysely<Database>, definition: ConfigDefinition) {
  const key = where(definition);
  await db
    .deleteFrom('configs')
    .where('scope_name', '=', key.scope_name)
    .where('scope_id', '=', key.scope_id)
    .where('type', '=', key.type)
    .where('name', '=', key.name)
    .execute();
}
