import {
  type AclEntry,
  CUSTOMER_KIND,
  type CustomerDocument,
  DOCUMENT_VERSION,
  type DocumentAcl,
  type DocumentCcFilter,
  type DocumentCcMatch,
  type DocumentCcRuleGroup,
  type DocumentCert,
  type DocumentSite,
  type DocumentStream,
  type FilterType,
  type SiteProtection,
  type SiteSettings,
  type StreamSettings,
  SYSTEM_REF_PREFIX,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { filterParams } from '../protection/cc-filters.repository.ts';
import { presentMatch } from '../protection/cc-matches.repository.ts';
import { ownedBy, SYSTEM_USER, usableOwners } from '../protection/cc-owner.ts';
import { ruleLines } from '../protection/cc-rule-groups.repository.ts';
import { readSiteDefaults } from '../user-configs/user-configs.ts';

/** An object of the caller's as the document shows it, with the row it came from. */
export interface Held<T> {
  id: number;
  object: T;
}

/** Names of rows (own and system), both ways, for one of the CC tables. */
export interface RefIndex {
  /** id → `name` or `system:name` */
  refOf: Map<number, string>;
  /** `name` or `system:name` → id */
  idOf: Map<string, number>;
}

/** Everything of one user's the document covers, keyed by the names the document uses. */
export interface CustomerState {
  userId: number;
  siteGroups: Map<string, Held<{ name: string }>>;
  streamGroups: Map<string, Held<{ name: string }>>;
  ccMatches: Map<string, Held<DocumentCcMatch>>;
  ccFilters: Map<string, Held<DocumentCcFilter>>;
  ccRuleGroups: Map<string, Held<DocumentCcRuleGroup>>;
  sites: Map<string, Held<DocumentSite>>;
  acls: Map<string, Held<DocumentAcl>>;
  streams: Map<string, Held<DocumentStream>>;
  certs: Map<string, Held<DocumentCert>>;
  userConfigs: NonNullable<CustomerDocument['user_configs']>;
  matchRefs: RefIndex;
  filterRefs: RefIndex;
  groupRefs: RefIndex;
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Rows keyed by name; two rows of one kind with one name cannot be told apart in a document. */
export function keyed<T>(label: string, rows: readonly { id: number; name: string; object: T }[]) {
  const map = new Map<string, Held<T>>();
  for (const row of rows) {
    if (map.has(row.name)) {
      throw new AppError(
        'conflict',
        `${label}: two of yours are named "${row.name}"; rename one to export or import your configuration`,
      );
    }
    map.set(row.name, { id: row.id, object: row.object });
  }
  return map;
}

async function refIndex(db: Kysely<Database>, table: 'cc_matches' | 'cc_filters' | 'cc_rule_groups', userId: number) {
  const rows = await db
    .selectFrom(table)
    .select(['id', 'name', 'user_id'])
    .where(ownedBy('user_id', usableOwners(userId)))
    .orderBy('id')
    .execute();
  const index: RefIndex = { refOf: new Map(), idOf: new Map() };
  for (const row of rows) {
    const ref = (row.user_id ?? SYSTEM_USER) === SYSTEM_USER ? `${SYSTEM_REF_PREFIX}${row.name}` : row.name;
    index.refOf.set(row.id, ref);
    // The oldest of two system rows with one name answers to it.
    if (!index.idOf.has(ref)) index.idOf.set(ref, row.id);
  }
  return index;
}

const refName = (index: RefIndex, id: number | null) => (id === null ? null : (index.refOf.get(id) ?? null));

/** A site's stored settings as the document writes them: names for the certificate and rule groups. */
function documentSettings(
  settings: SiteSettings,
  certNames: Map<number, string>,
  groupRefs: RefIndex,
): DocumentSite['settings'] {
  const { cert_id, protection, ...rest } = settings;
  const document: DocumentSite['settings'] = {
    ...rest,
    cert: cert_id === null ? null : (certNames.get(cert_id) ?? null),
  };
  if (protection) {
    const { rule_group_id, attack_rule_group_id, ...fields } = protection as SiteProtection;
    document.protection = {
      ...fields,
      rule_group: refName(groupRefs, rule_group_id),
      attack_rule_group: refName(groupRefs, attack_rule_group_id),
    };
  }
  return document;
}

/** Reads what of `userId`'s the document covers, in a stable order (by name). */
export async function loadCustomerState(db: Kysely<Database>, userId: number): Promise<CustomerState> {
  const [matchRefs, filterRefs, groupRefs] = await Promise.all([
    refIndex(db, 'cc_matches', userId),
    refIndex(db, 'cc_filters', userId),
    refIndex(db, 'cc_rule_groups', userId),
  ]);
  const siteGroupRows = await db.selectFrom('site_groups').selectAll().where('user_id', '=', userId).execute();
  const streamGroupRows = await db.selectFrom('stream_groups').selectAll().where('user_id', '=', userId).execute();
  const siteGroupNames = new Map(siteGroupRows.map((row) => [row.id, row.name]));
  const streamGroupNames = new Map(streamGroupRows.map((row) => [row.id, row.name]));

  const certRows = await db.selectFrom('certs').selectAll().where('user_id', '=', userId).execute();
  const certNames = new Map(certRows.map((row) => [row.id, row.name]));

  const matchRows = await db.selectFrom('cc_matches').selectAll().where('user_id', '=', userId).execute();
  const filterRows = await db.selectFrom('cc_filters').selectAll().where('user_id', '=', userId).execute();
  const ruleGroupRows = await db.selectFrom('cc_rule_groups').selectAll().where('user_id', '=', userId).execute();
  const lines = await ruleLines(
    db,
    ruleGroupRows.map((row) => row.id),
  );

  const siteRows = await db.selectFrom('sites').selectAll().where('user_id', '=', userId).execute();
  const siteNames = new Map(siteRows.map((row) => [row.id, row.name]));
  const aclRows = await db.selectFrom('acls').selectAll().where('user_id', '=', userId).execute();
  const streamRows = await db.selectFrom('streams').selectAll().where('user_id', '=', userId).execute();

  const sorted = <T extends { name: string }>(rows: T[]) => [...rows].sort(byName);
  return {
    userId,
    siteGroups: keyed(
      'site_groups',
      sorted(siteGroupRows).map((row) => ({ id: row.id, name: row.name, object: { name: row.name } })),
    ),
    streamGroups: keyed(
      'stream_groups',
      sorted(streamGroupRows).map((row) => ({ id: row.id, name: row.name, object: { name: row.name } })),
    ),
    ccMatches: keyed(
      'cc_matches',
      sorted(matchRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: { name: row.name, conditions: presentMatch(row).conditions },
      })),
    ),
    ccFilters: keyed(
      'cc_filters',
      sorted(filterRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: { name: row.name, type: row.type as FilterType, ...filterParams(row) },
      })),
    ),
    ccRuleGroups: keyed(
      'cc_rule_groups',
      sorted(ruleGroupRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: {
          name: row.name,
          rules: (lines.get(row.id) ?? []).map((line) => ({
            match: refName(matchRefs, line.match_id) ?? '',
            filter: refName(filterRefs, line.filter_id) ?? '',
            action: line.action,
            ban_seconds: line.ban_seconds,
          })),
        },
      })),
    ),
    sites: keyed(
      'sites',
      sorted(siteRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: {
          name: row.name,
          group: row.group_id === null ? null : (siteGroupNames.get(row.group_id) ?? null),
          settings: documentSettings(JSON.parse(row.settings) as SiteSettings, certNames, groupRefs),
        },
      })),
    ),
    acls: keyed(
      'acls',
      aclRows
        .map((row) => ({ id: row.id, name: siteNames.get(row.site_id) ?? '', entries: row.entries }))
        .sort(byName)
        .map((row) => ({
          id: row.id,
          name: row.name,
          object: { site: row.name, entries: JSON.parse(row.entries) as AclEntry[] },
        })),
    ),
    streams: keyed(
      'streams',
      sorted(streamRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: {
          name: row.name,
          group: row.group_id === null ? null : (streamGroupNames.get(row.group_id) ?? null),
          settings: JSON.parse(row.settings) as StreamSettings,
        },
      })),
    ),
    certs: keyed(
      'certificates',
      sorted(certRows).map((row) => ({
        id: row.id,
        name: row.name,
        object: {
          name: row.name,
          domains: JSON.parse(row.source === 'acme' ? row.domains : row.names) as string[],
          not_after: row.cert_pem === '' ? null : new Date(row.not_after).toISOString(),
        },
      })),
    ),
    userConfigs: { site_defaults: await readSiteDefaults(db, userId) },
    matchRefs,
    filterRefs,
    groupRefs,
  };
}

const objects = <T>(map: Map<string, Held<T>>) => [...map.values()].map((held) => held.object);

/** The document of a state: every section, each in name order. */
export function documentOf(state: CustomerState): CustomerDocument {
  return {
    version: DOCUMENT_VERSION,
    kind: CUSTOMER_KIND,
    site_groups: objects(state.siteGroups),
    cc_matches: objects(state.ccMatches),
    cc_filters: objects(state.ccFilters),
    cc_rule_groups: objects(state.ccRuleGroups),
    sites: objects(state.sites),
    acls: objects(state.acls),
    stream_groups: objects(state.streamGroups),
    streams: objects(state.streams),
    user_configs: state.userConfigs,
    certificates: objects(state.certs),
  };
}
