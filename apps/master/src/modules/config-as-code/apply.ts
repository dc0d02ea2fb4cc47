import type {
  CreateSiteBody,
  CustomerDocument,
  DocumentSite,
  DocumentSiteProtection,
  ImportPlan,
  PlanChange,
  SiteProtection,
  SiteSettings,
  UpdateSiteBody,
} from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newSiteDefaults } from '../edge-settings/edge-settings.service.ts';
import { createAcl, editAcl, removeAcl } from '../protection/acls.service.ts';
import { createFilter, editFilter, removeFilters } from '../protection/cc-filters.service.ts';
import { createMatch, editMatch, removeMatches } from '../protection/cc-matches.service.ts';
import { createGroup, editGroup, removeGroups } from '../protection/cc-rule-groups.service.ts';
import { protectionOf } from '../protection/site-protection.repository.ts';
import { newSiteProtection } from '../protection/site-protection.ts';
import { checkSiteSettings, DEFAULT_SITE_SETTINGS } from '../sites/site-rules.ts';
import { findSite } from '../sites/sites.repository.ts';
import { normalizeDomain } from '../sites/sites.routes.ts';
import { batchSites, createSite, editSite } from '../sites/sites.service.ts';
import { batchStreams, createStream, DEFAULT_STREAM_SETTINGS, editStream } from '../streams/streams.service.ts';
import type { Owner } from '../tenancy.ts';
import { writeSiteDefaults } from '../user-configs/user-configs.ts';
import { checkReferences, checkSchema, fieldIn, parseDocument } from './document.ts';
import { inOneConfigVersion } from './one-version.ts';
import { planChanges } from './plan.ts';
import { type CustomerState, loadCustomerState } from './state.ts';

type Trx = Transaction<Database>;

/** Field names of the single calls as the document writes them. */
const RENAMED: Record<string, string> = {
  cert_id: 'cert',
  group_id: 'group',
  rule_group_id: 'rule_group',
  attack_rule_group_id: 'attack_rule_group',
  match_id: 'match',
  filter_id: 'filter',
};

/**
 * Runs one object's change; an error names the object's path in the document. `settingsBase` is
 * where the object's settings sit (a site's error about `domains` is `sites[1].settings.domains`).
 */
async function at<T>(base: string, settingsBase: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const match = /^([\w./[\]-]+): (.+)$/s.exec(error.message);
    if (!match) throw new AppError(error.code, `${base}: ${error.message}`, error.params);
    const [, field = '', rule = ''] = match;
    const top = field.split(/[/.]/)[0] ?? '';
    // The package a new object counts against is not a field of the document: the object is named.
    if (top === 'user_package_id') throw new AppError(error.code, `${base}: ${rule}`, error.params);
    const path = fieldIn(['name', 'group_id'].includes(top) ? base : settingsBase, field, RENAMED);
    throw new AppError(
      error.code,
      `${path}: ${rule}`,
      error.code === 'invalid_param' ? { field: path, rule } : error.params,
    );
  }
}

/** Document domains as the single calls take them: trimmed, lower case, IDNA. */
function normalizeDomains(value: unknown) {
  const sites = (value as { sites?: unknown } | null)?.sites;
  if (!Array.isArray(sites)) return;
  for (const site of sites) {
    const settings = (site as { settings?: { domains?: unknown } } | null)?.settings;
    if (settings && Array.isArray(settings.domains))
      settings.domains = settings.domains.map((domain) =>
        typeof domain === 'string' ? normalizeDomain(domain) : domain,
      );
  }
}

interface Ids {
  siteGroups: Map<string, number>;
  streamGroups: Map<string, number>;
  matches: Map<string, number>;
  filters: Map<string, number>;
  ruleGroups: Map<string, number>;
  sites: Map<string, number>;
}

const need = (map: Map<string, number>, name: string) => {
  const id = map.get(name);
  if (id === undefined) throw new AppError('not_found', `"${name}" does not exist`);
  return id;
};

const heldIds = <T>(map: Map<string, { id: number; object: T }>) =>
  new Map([...map].map(([name, held]) => [name, held.id]));

function protectionWithIds(
  protection: DocumentSiteProtection,
  base: SiteProtection,
  ruleGroups: Map<string, number>,
): SiteProtection {
  const { rule_group, attack_rule_group, ...fields } = protection;
  const ref = (name: string | null | undefined, current: number | null) =>
    name === undefined ? current : name === null ? null : need(ruleGroups, name);
  return {
    ...base,
    ...fields,
    rule_group_id: ref(rule_group, base.rule_group_id),
    attack_rule_group_id: ref(attack_rule_group, base.attack_rule_group_id),
  };
}

/** A document site's settings as the single calls take them: ids for names. */
async function siteFields(
  state: CustomerState,
  ids: Ids,
  site: DocumentSite,
  baseProtection: () => Promise<SiteProtection>,
): Promise<UpdateSiteBody> {
  const { cert, protection, ...settings } = site.settings;
  const fields: UpdateSiteBody = { ...settings, name: site.name };
  if (site.group !== undefined) fields.group_id = site.group === null ? null : need(ids.siteGroups, site.group);
  if (cert !== undefined) fields.cert_id = cert === null ? null : (state.certs.get(cert)?.id ?? null);
  if (protection) fields.protection = protectionWithIds(protection, await baseProtection(), ids.ruleGroups);
  return fields;
}

/** Makes the plan's changes in `trx`, through the services the single calls use. */
async function applyChanges(
  trx: Trx,
  owner: Owner,
  document: CustomerDocument,
  state: CustomerState,
  changes: readonly PlanChange[],
): Promise<number[]> {
  const userId = owner.userId;
  const actionOf = (kind: PlanChange['kind'], name: string) =>
    changes.find((change) => change.kind === kind && change.name === name)?.action;
  const deleted = (kind: PlanChange['kind']) =>
    changes.filter((change) => change.kind === kind && change.action === 'delete').map((change) => change.name);
  const ids: Ids = {
    siteGroups: heldIds(state.siteGroups),
    streamGroups: heldIds(state.streamGroups),
    matches: new Map(state.matchRefs.idOf),
    filters: new Map(state.filterRefs.idOf),
    ruleGroups: new Map(state.groupRefs.idOf),
    sites: heldIds(state.sites),
  };
  const now = Date.now();

  for (const [section, table, map] of [
    ['site_groups', 'site_groups', ids.siteGroups],
    ['stream_groups', 'stream_groups', ids.streamGroups],
  ] as const) {
    for (const group of document[section] ?? []) {
      if (map.has(group.name)) continue;
      const row = await trx
        .insertInto(table)
        .values({ user_id: userId, name: group.name, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      map.set(group.name, row.id);
    }
  }

  for (const [index, match] of (document.cc_matches ?? []).entries()) {
    const path = `cc_matches[${index}]`;
    const action = actionOf('cc_match', match.name);
    if (action === 'create')
      ids.matches.set(match.name, (await at(path, path, () => createMatch(trx, owner, match))).id);
    if (action === 'update')
      await at(path, path, () =>
        editMatch(trx, owner, need(ids.matches, match.name), { conditions: match.conditions }),
      );
  }
  for (const [index, filter] of (document.cc_filters ?? []).entries()) {
    const path = `cc_filters[${index}]`;
    const action = actionOf('cc_filter', filter.name);
    if (action === 'create')
      ids.filters.set(filter.name, (await at(path, path, () => createFilter(trx, owner, filter))).id);
    if (action === 'update') await at(path, path, () => editFilter(trx, owner, need(ids.filters, filter.name), filter));
  }
  for (const [index, group] of (document.cc_rule_groups ?? []).entries()) {
    const path = `cc_rule_groups[${index}]`;
    const action = actionOf('cc_rule_group', group.name);
    if (action === undefined) continue;
    const rules = group.rules.map((rule) => ({
      match_id: need(ids.matches, rule.match),
      filter_id: need(ids.filters, rule.filter),
      action: rule.action,
      ban_seconds: rule.ban_seconds,
    }));
    if (action === 'create')
      ids.ruleGroups.set(
        group.name,
        (await at(path, path, () => createGroup(trx, owner, { name: group.name, rules }))).id,
      );
    if (action === 'update')
      await at(path, path, () => editGroup(trx, owner, need(ids.ruleGroups, group.name), { rules }));
  }

  const createdSites: number[] = [];
  for (const [index, site] of (document.sites ?? []).entries()) {
    const path = `sites[${index}]`;
    const action = actionOf('site', site.name);
    if (action === 'create') {
      const fields = await siteFields(state, ids, site, async () => ({
        ...(await newSiteProtection(trx)),
        ...(await newSiteDefaults(trx, userId, site.settings.cert != null)).protection,
      }));
      const body = { ...fields, domains: site.settings.domains, origins: site.settings.origins } as CreateSiteBody;
      const row = await at(path, `${path}.settings`, () => createSite(trx, userId, body));
      ids.sites.set(site.name, row.id);
      createdSites.push(row.id);
    }
    if (action === 'update') {
      const id = need(ids.sites, site.name);
      const fields = await siteFields(state, ids, site, async () => {
        const row = await findSite(trx, owner, id);
        return protectionOf(JSON.parse(row?.settings ?? '{}') as SiteSettings);
      });
      await at(path, `${path}.settings`, () => editSite(trx, owner, id, fields));
    }
  }

  for (const name of deleted('acl')) {
    const held = state.acls.get(name);
    if (held) await at(`acls.${name}`, `acls.${name}`, () => removeAcl(trx, owner, held.id));
  }
  for (const [index, acl] of (document.acls ?? []).entries()) {
    const path = `acls[${index}]`;
    const action = actionOf('acl', acl.site);
    if (action === 'create')
      await at(path, path, () => createAcl(trx, owner, { site_id: need(ids.sites, acl.site), entries: acl.entries }));
    if (action === 'update') {
      const held = state.acls.get(acl.site);
      if (held) await at(path, path, () => editAcl(trx, owner, held.id, acl.entries));
    }
  }

  for (const [index, stream] of (document.streams ?? []).entries()) {
    const path = `streams[${index}]`;
    const action = actionOf('stream', stream.name);
    const groupId =
      stream.group === undefined ? undefined : stream.group === null ? null : need(ids.streamGroups, stream.group);
    if (action === 'create') {
      const record = {
        userId,
        groupId: groupId ?? null,
        name: stream.name,
        settings: { ...DEFAULT_STREAM_SETTINGS, ...stream.settings },
      };
      await at(path, `${path}.settings`, () => createStream(trx, record));
    }
    if (action === 'update') {
      const id = state.streams.get(stream.name)?.id ?? 0;
      const changes = { ...stream.settings, ...(groupId !== undefined && { group_id: groupId }) };
      await at(path, `${path}.settings`, () => editStream(trx, owner, id, changes));
    }
  }

  if (document.user_configs && actionOf('user_configs', 'site_defaults')) {
    const defaults = document.user_configs.site_defaults;
    await at('user_configs', 'user_configs.site_defaults', async () => {
      checkSiteSettings({
        ...DEFAULT_SITE_SETTINGS,
        ...defaults,
        domains: ['defaults.example.com'],
        origins: [{ address: '127.0.0.1', port: 80, weight: 1, backup: false }],
      });
      await writeSiteDefaults(trx, userId, defaults);
    });
  }

  // Deletions last, users before what they use.
  const removeAll = async (section: string, names: string[], remove: (ids: number[]) => Promise<unknown>) => {
    if (names.length > 0) await at(section, section, () => remove(names.map((name) => need(heldMap(section), name))));
  };
  const heldMap = (section: string): Map<string, number> =>
    ({
      streams: heldIds(state.streams),
      sites: ids.sites,
      cc_rule_groups: ids.ruleGroups,
      cc_matches: ids.matches,
      cc_filters: ids.filters,
    })[section] ?? new Map();
  await removeAll('streams', deleted('stream'), (list) => batchStreams(trx, owner, list, 'delete', undefined));
  await removeAll('sites', deleted('site'), (list) => batchSites(trx, owner, list, 'delete', undefined));
  await removeAll('cc_rule_groups', deleted('cc_rule_group'), (list) => removeGroups(trx, owner, list));
  await removeAll('cc_matches', deleted('cc_match'), (list) => removeMatches(trx, owner, list));
  await removeAll('cc_filters', deleted('cc_filter'), (list) => removeFilters(trx, owner, list));
  for (const [kind, table, members, map] of [
    ['site_group', 'site_groups', 'sites', ids.siteGroups],
    ['stream_group', 'stream_groups', 'streams', ids.streamGroups],
  ] as const) {
    const list = deleted(kind).map((name) => need(map, name));
    if (list.length === 0) continue;
    await trx.updateTable(members).set({ group_id: null }).where('group_id', 'in', list).execute();
    await trx.deleteFrom(table).where('id', 'in', list).where('user_id', '=', userId).execute();
  }
  return createdSites;
}

export interface ImportOutcome extends ImportPlan {
  /** Sites the import made, whose CNAME records the caller publishes. */
  createdSiteIds: number[];
}

/**
 * Plans an import of `input` for user `userId` and, unless `dryRun`, applies it in one transaction
 * with one config version. A dry run makes the changes too and rolls them back, so it meets every
 * check (package limits, domains taken) an apply would.
 */
export async function importDocument(
  db: Kysely<Database>,
  userId: number,
  input: string | object,
  dryRun: boolean,
): Promise<ImportOutcome> {
  const parsed = parseDocument(input);
  normalizeDomains(parsed);
  const document = checkSchema(parsed);
  const state = await loadCustomerState(db, userId);
  checkReferences(document, state);
  const changes = planChanges(document, state);
  if (changes.length === 0) return { changes, applied: false, config_version: null, createdSiteIds: [] };
  const owner: Owner = { kind: 'user', userId };
  const { version, result } = await inOneConfigVersion(db, dryRun, async (trx) => {
    // The state again inside the transaction: what another call changed since counts.
    const current = await loadCustomerState(trx, userId);
    const applied = planChanges(document, current);
    return { applied, createdSiteIds: await applyChanges(trx, owner, document, current, applied) };
  });
  if (version === null || !result) return { changes, applied: false, config_version: null, createdSiteIds: [] };
  return { changes: result.applied, applied: true, config_version: version, createdSiteIds: result.createdSiteIds };
}
