import type { DnsDrift } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { cnameTarget } from '../cname/cname.repository.ts';
import { addressType, bare } from '../dnsapis/dns-provider.ts';
import { compareRecords, type NamedRecord } from './drift-compare.ts';
import type { LineGroupServices } from './line-groups.service.ts';
import { cnameDomainTarget, inPublishTurn, lineAt, planner, publishLineGroups } from './publish.ts';
import { publishSiteCnames } from './site-cnames.ts';

type Plan = Awaited<ReturnType<typeof planner>>;

/** Providers that keep a weight per record (PowerDNS and Cloudflare answer every record alike). */
const WEIGHTED_PROVIDERS = new Set(['dnspod', 'alidns']);
/** Site CNAMEs compared per check: one provider call each, so a group with many sites is sampled. */
const MAX_SITES = 200;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

const findGroup = async (db: Kysely<Database>, id: number) => {
  const group = await db
    .selectFrom('node_groups')
    .select(['id', 'name', 'host', 'cname_domain_id', 'backup_group_id', 'is_default'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!group) throw new AppError('not_found', `line group ${id} does not exist`);
  return group;
};
type Group = Awaited<ReturnType<typeof findGroup>>;

/** The records publishing writes for the group's host, per line as the provider names it. */
function wantedAddresses(group: Group, plan: Plan, name: string, providerName: string, ttl: number): NamedRecord[] {
  const weighted = WEIGHTED_PROVIDERS.has(providerName);
  return plan.linesOf(group).flatMap((entry) => {
    const line = lineAt(
      plan.lines.find((row) => row.id === entry.line_id),
      providerName,
    );
    return (['A', 'AAAA'] as const).flatMap((type) => {
      const records = entry.records.filter((record) => addressType(record.ip) === type);
      // Weights are written only where they differ among a line's records of one type.
      const compared = weighted && new Set(records.map((record) => record.weight)).size > 1;
      return records.map((record) => ({
        name,
        type,
        value: record.ip,
        line,
        ttl,
        weight: compared ? record.weight : null,
      }));
    });
  });
}

/** The sites whose CNAME target points at the group (the default group's also take sites without one). */
async function siteCnames(db: Kysely<Database>, group: Group) {
  const home = await db
    .selectFrom('cname_domains')
    .select(['id', 'dnsapi_id'])
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  if (!home || home.dnsapi_id === null) return { home: null, sites: [] };
  const sites = await db
    .selectFrom('sites')
    .select('id')
    .where((eb) =>
      eb.or([eb('line_group_id', '=', group.id), ...(group.is_default === 1 ? [eb('line_group_id', 'is', null)] : [])]),
    )
    .orderBy('id')
    .limit(MAX_SITES)
    .execute();
  return { home: home.id, sites: sites.map((site) => site.id) };
}

/**
 * Compares what the group's provider holds for its host (A/AAAA on every line) and for the CNAMEs
 * of its sites with what publishing would write now. Provider failures are answered in `error`.
 */
export async function checkDrift(
  db: Kysely<Database>,
  services: Pick<LineGroupServices, 'secrets'>,
  id: number,
  plan?: Plan,
): Promise<DnsDrift> {
  const group = await findGroup(db, id);
  const drift: DnsDrift = {
    group_id: group.id,
    group_name: group.name,
    fqdn: '',
    provider: '',
    checked_at: new Date().toISOString(),
    sites_checked: 0,
    differences: [],
    error: '',
  };
  if (!group.host || group.cname_domain_id === null) {
    drift.error = 'the line group has no CNAME domain or host, so nothing of it is published';
    return drift;
  }
  try {
    const target = await cnameDomainTarget(db, services.secrets, group.cname_domain_id);
    drift.fqdn = `${group.host}.${target.domain}`;
    drift.provider = target.providerName;
    const wanted = wantedAddresses(
      group,
      plan ?? (await planner(db)),
      drift.fqdn,
      target.providerName,
      await target.provider.ttlAt(target.zone, 'address'),
    );
    const held = (await target.provider.listRecords(target.zone, drift.fqdn))
      .filter((record) => record.type === 'A' || record.type === 'AAAA')
      .map((record) => ({ ...record, name: drift.fqdn }));
    drift.differences.push(...compareRecords(wanted, held, WEIGHTED_PROVIDERS.has(target.providerName)));

    const { home, sites } = await siteCnames(db, group);
    if (home === null || sites.length === 0) return drift;
    const siteTarget = await cnameDomainTarget(db, services.secrets, home);
    const ttl = await siteTarget.provider.ttlAt(siteTarget.zone, 'cname');
    for (const site of sites) {
      const name = cnameTarget(site, siteTarget.domain);
      const cname = { name, type: 'CNAME', value: bare(drift.fqdn), line: null, ttl, weight: null };
      const present = (await siteTarget.provider.listRecords(siteTarget.zone, name))
        .filter((record) => record.type === 'CNAME')
        .map((record) => ({ ...record, name }));
      drift.differences.push(...compareRecords([cname], present, false));
      drift.sites_checked++;
    }
  } catch (error) {
    drift.error = message(error);
  }
  return drift;
}

/** Every line group's drift, one after another (a provider's rate limit is per account). */
export async function checkAllDrift(db: Kysely<Database>, services: Pick<LineGroupServices, 'secrets'>) {
  const plan = await planner(db);
  const groups = await db.selectFrom('node_groups').select('id').orderBy('id').execute();
  const list: DnsDrift[] = [];
  for (const group of groups) list.push(await checkDrift(db, services, group.id, plan));
  return list;
}

/**
 * Republishes the group and its sites' CNAMEs, removes address records it holds on lines the group
 * does not publish, then checks again: the differences left (none unless the provider refused).
 */
export async function repairDrift(services: LineGroupServices, id: number): Promise<DnsDrift> {
  const { db, secrets, log } = services;
  const before = await checkDrift(db, services, id);
  if (!before.fqdn) return before;
  const published = await publishLineGroups(db, secrets, log, [id]);
  const errors = published.groups.map((entry) => entry.error).filter(Boolean);
  // Planned in its turn, so a publish of a newer plan cannot come between the plan and the removal.
  const plan = await inPublishTurn(db, () => removeStrayLines(db, secrets, id, before, errors));
  const sites = await publishSiteCnames(db, secrets, log, { groupIds: [id] });
  if (sites.error) errors.push(sites.error);
  const after = await checkDrift(db, services, id, plan);
  if (!after.error && errors.length > 0) after.error = errors.join('; ').slice(0, 500);
  return after;
}

/** Empties the address records of the group's name on lines it does not publish; answers the plan it read. */
async function removeStrayLines(
  db: Kysely<Database>,
  secrets: SecretBox,
  id: number,
  before: DnsDrift,
  errors: string[],
) {
  const group = await findGroup(db, id);
  const plan = await planner(db);
  try {
    const target = await cnameDomainTarget(db, secrets, group.cname_domain_id ?? 0);
    const planned = new Set(
      plan.linesOf(group).map((entry) =>
        lineAt(
          plan.lines.find((row) => row.id === entry.line_id),
          target.providerName,
        ),
      ),
    );
    const strayLines = new Set(
      before.differences
        .filter((entry) => entry.kind === 'extra' && entry.type !== 'CNAME' && entry.name === bare(before.fqdn))
        .map((entry) => (entry.line === '' ? null : entry.line))
        .filter((line) => !planned.has(line)),
    );
    for (const line of strayLines) await target.provider.setAddresses(target.zone, before.fqdn, line, []);
  } catch (error) {
    errors.push(message(error));
  }
  return plan;
}

/** repairDrift for every line group that has something published. */
export async function repairAllDrift(services: LineGroupServices) {
  const groups = await services.db.selectFrom('node_groups').select('id').orderBy('id').execute();
  const list: DnsDrift[] = [];
  for (const group of groups) list.push(await repairDrift(services, group.id));
  return list;
}
