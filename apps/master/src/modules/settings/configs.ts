import {
  DEFAULT_SITE_PROTECTION,
  DEFAULT_UNKNOWN_HOST,
  PERMISSIONS,
  SECRET_MASK,
  SECRET_SETTINGS,
  SYSTEM_SETTING_GROUPS,
  type SystemSettingGroup,
  UnknownHostSettings,
  WafDefaults,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Database } from '../../db/schema.ts';
import { DNS_TTL } from '../dnsapis/dns-ttl.ts';
import { EDGE_SETTING_CONFIGS } from '../edge-settings/edge-settings.configs.ts';
import { NODE_MONITOR } from '../health/monitor-settings.ts';
import { grandfatherSiteDomains } from '../sites/domain-proofs.repository.ts';
import { AGENT_MASTERS } from './agent-masters.ts';
import type { ConfigDefinition } from './config-definition.ts';
import { groupValue, loadSettings, SETTING_DEFAULTS } from './settings.service.ts';

export type { ConfigDefinition } from './config-definition.ts';

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
    'WAF settings new sites start with, and that inspect requests no site serves: {mode, paranoia, exclusions, inspect_static?, static_exts?}',
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

const SYSTEM_DESCRIPTIONS: Record<SystemSettingGroup, string> = {
  site: 'Site name, logo and footer (the sign-in pages and GET /v1/common/sysinfo show them)',
  register: 'Registration: open or closed, which fields are required, the user agreement',
  captcha: 'When sign-in asks for a captcha, and how email and phone codes are limited',
  smtp: 'Mail server of every email; the password is never answered once saved',
  sms: 'SMS provider of phone codes and messages; the secret is never answered once saved',
  session: 'How long a sign-in lasts',
  password: 'What a new password must contain',
  locale: 'The default language and the languages users may pick',
  retention: 'How long logs, traffic rollups and usage samples are kept',
  business: 'Whether customers need an active package to create a site or a stream',
  dns: 'Whether DNS API accounts may point at loopback and private addresses (a self-hosted PowerDNS; it also lets them reach inside the network)',
  domains:
    "Proof of domain ownership: a site's domain reaches the edges only once its owner proved it; switching it on keeps the domains already on sites live",
};

/** What saving a tab does besides storing it: proof of domain ownership changes what the edges serve. */
const SYSTEM_EFFECTS: Partial<Record<SystemSettingGroup, Pick<ConfigDefinition, 'edge' | 'onSave'>>> = {
  domains: {
    edge: true,
    onSave: async (trx, saved, before) => {
      const on = (value: unknown) => (value as { domain_proof?: unknown }).domain_proof === true;
      if (on(saved) && !on(before)) await grandfatherSiteDomains(trx, Date.now());
    },
  },
};

/** The tabs of /sys/setting, `global-0-system-{group}`, for admins holding admin:sys. */
export const SYSTEM_SETTINGS: readonly ConfigDefinition[] = (
  Object.entries(SYSTEM_SETTING_GROUPS) as [SystemSettingGroup, TSchema][]
).map(([group, schema]) =>
  define({
    scope_name: 'global',
    scope_id: 0,
    type: 'system',
    name: group,
    schema,
    fallback: groupValue(SETTING_DEFAULTS, group),
    permission: PERMISSIONS.adminSys,
    description: `${SYSTEM_DESCRIPTIONS[group]}: ${Object.keys(groupValue(SETTING_DEFAULTS, group)).join(', ')}`,
    edge: false,
    secrets: Object.keys(groupValue(SETTING_DEFAULTS, group)).filter((name) => SECRET_SETTINGS.includes(name)),
    ...SYSTEM_EFFECTS[group],
  }),
);

export const CONFIGS: readonly ConfigDefinition[] = [
  WAF_DEFAULTS,
  UNKNOWN_HOST,
  ...EDGE_SETTING_CONFIGS,
  NODE_MONITOR,
  DNS_TTL,
  ...SYSTEM_SETTINGS,
  AGENT_MASTERS,
];

/** The value as the browser sees it: saved secrets replaced with the mask. */
export function maskConfigSecrets(definition: ConfigDefinition, value: unknown): unknown {
  if (!definition.secrets?.length || value === null || typeof value !== 'object') return value;
  const shown: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const name of definition.secrets)
    if (typeof shown[name] === 'string' && shown[name] !== '') shown[name] = SECRET_MASK;
  return shown;
}

/**
 * A value to store: a secret sent back as the mask keeps the stored one; every secret is stored
 * sealed (`seal`: the store's box, sealed-settings.ts), never in the clear.
 */
export function keepMaskedSecrets(
  definition: ConfigDefinition,
  sent: unknown,
  stored: unknown,
  seal: (plain: string) => string = (plain) => plain,
): unknown {
  if (!definition.secrets?.length || sent === null || typeof sent !== 'object') return sent;
  const kept: Record<string, unknown> = { ...(sent as Record<string, unknown>) };
  const before = (stored ?? {}) as Record<string, unknown>;
  for (const name of definition.secrets) {
    if (kept[name] === SECRET_MASK) kept[name] = before[name] ?? '';
    const value = kept[name];
    if (typeof value === 'string') kept[name] = seal(value);
  }
  return kept;
}

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
  if (definition.type === 'system') {
    // As the readers see them: defaults overlaid with what is stored (settings.service.ts).
    const value = groupValue(await loadSettings(db), definition.name) as Static<T>;
    return { value, updatedAt: row?.updated_at ?? null };
  }
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
