import type {
  AclEntry,
  Condition,
  EdgeBan,
  EdgeProtection,
  EdgeRuleGroup,
  EdgeUnban,
  SiteSettings,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { filterSettings } from './cc-filters.repository.ts';
import { defaultGroupId, ruleLines } from './cc-rule-groups.repository.ts';
import { protectionOf } from './site-protection.repository.ts';

const UNBAN_WINDOW_MS = 24 * 3600 * 1000;
const seconds = (ms: number) => Math.ceil(ms / 1000);

/** Rule groups as edges run them: each line with its match's conditions and its filter inlined. */
async function edgeRuleGroups(db: Kysely<Database>, groupIds: readonly number[]): Promise<EdgeRuleGroup[]> {
  if (groupIds.length === 0) return [];
  const existing = await db.selectFrom('cc_rule_groups').select('id').where('id', 'in', groupIds).execute();
  const lines = await ruleLines(
    db,
    existing.map((row) => row.id),
  );
  const all = [...lines.values()].flat();
  const matchIds = [...new Set(all.map((line) => line.match_id))];
  const filterIds = [...new Set(all.map((line) => line.filter_id))];
  const [matches, filters] = await Promise.all([
    matchIds.length === 0
      ? []
      : db.selectFrom('cc_matches').select(['id', 'conditions']).where('id', 'in', matchIds).execute(),
    filterIds.length === 0 ? [] : db.selectFrom('cc_filters').selectAll().where('id', 'in', filterIds).execute(),
  ]);
  const conditions = new Map(matches.map((row) => [row.id, JSON.parse(row.conditions) as Condition[]]));
  const filterById = new Map(filters.map((row) => [row.id, filterSettings(row)]));
  return [...lines.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, rules]) => ({
      id,
      rules: rules.flatMap((line) => {
        const match = conditions.get(line.match_id);
        const filter = filterById.get(line.filter_id);
        // Foreign keys keep both; a line without them would only be a half-read race.
        return match && filter ? [{ ...line, conditions: match, filter }] : [];
      }),
    }));
}

/** ACLs of live sites with at least one entry, by site id. */
async function edgeAcls(db: Kysely<Database>, liveIds: ReadonlySet<number>) {
  const rows = await db.selectFrom('acls').select(['site_id', 'entries']).orderBy('site_id').execute();
  return rows
    .filter((row) => liveIds.has(row.site_id))
    .map((row) => ({ site_id: row.site_id, entries: JSON.parse(row.entries) as AclEntry[] }))
    .filter((acl) => acl.entries.length > 0);
}

/** Manual bans running now, of live sites or every site (0). */
async function edgeBans(db: Kysely<Database>, liveIds: ReadonlySet<number>, now: number): Promise<EdgeBan[]> {
  const rows = await db
    .selectFrom('bans')
    .select(['site_id', 'cidr', 'expires_at'])
    .where('source', '=', 'manual')
    .where('lifted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id')
    .execute();
  return rows
    .filter((row) => row.site_id === 0 || liveIds.has(row.site_id))
    .map((row) => ({ site_id: row.site_id, cidr: row.cidr, expires_at: seconds(row.expires_at) }));
}

/** Edge bans lifted in the last 24 hours that would still run: the nodes that set them drop them. */
async function edgeUnbans(db: Kysely<Database>, liveIds: ReadonlySet<number>, now: number): Promise<EdgeUnban[]> {
  const rows = await db
    .selectFrom('bans')
    .select(['site_id', 'cidr', 'expires_at'])
    .where('source', '=', 'edge')
    .where('lifted_at', '>=', now - UNBAN_WINDOW_MS)
    .where('expires_at', '>', now)
    .execute();
  const until = new Map<string, EdgeUnban>();
  for (const row of rows) {
    if (!liveIds.has(row.site_id)) continue;
    const key = `${row.site_id} ${row.cidr}`;
    const known = until.get(key);
    if (!known || known.until < seconds(row.expires_at)) {
      until.set(key, { site_id: row.site_id, ip: row.cidr, until: seconds(row.expires_at) });
    }
  }
  return [...until.values()].sort((a, b) => a.site_id - b.site_id || a.ip.localeCompare(b.ip));
}

/**
 * The protection part of a snapshot for `sites` (the live ones). Each site gets its protection
 * filled in, with the default rule group where it has none, so the edge needs no default logic.
 */
export async function edgeProtection(
  db: Kysely<Database>,
  sites: (SiteSettings & { id: number })[],
  now = Date.now(),
): Promise<EdgeProtection> {
  const fallback = await defaultGroupId(db);
  const used = new Set<number>();
  for (const site of sites) {
    const protection = protectionOf(site);
    site.protection = { ...protection, rule_group_id: protection.rule_group_id ?? fallback };
    for (const id of [site.protection.rule_group_id, site.protection.attack_rule_group_id])
      if (id !== null) used.add(id);
  }
  const liveIds = new Set(sites.map((site) => site.id));
  const [rule_groups, acls, bans, unbans] = await Promise.all([
    edgeRuleGroups(db, [...used]),
    edgeAcls(db, liveIds),
    edgeBans(db, liveIds, now),
    edgeUnbans(db, liveIds, now),
  ]);
  return { rule_groups, acls, bans, unbans };
}
