import { DEFAULT_LINE_CODE } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { runUnderLease } from '../cluster/leases.ts';
import type { AddressRecord, DnsProvider } from '../dnsapis/dns-provider.ts';
import { providerOf } from '../dnsapis/dnsapis.service.ts';
import { zoneOf } from '../dnsapis/providers.ts';
import { downIps } from '../health/ip-states.ts';
import { type LineRow, providerLineCode } from './lines.repository.ts';

/** What one line of a group answers after publishing. */
export interface PublishedLine {
  line_id: number;
  ips: string[];
  /**
   * primary: the chosen IPs that are up; backup: the line's backup IPs; backup_group: the backup
   * line group's; removed: nothing of the line is up, its records leave (resolvers of a line other
   * than the default then get the default line's answer).
   */
  source: 'primary' | 'backup' | 'backup_group' | 'removed';
}

export interface PublishedGroup {
  id: number;
  /** host.cname domain; '' when the group has no host or CNAME domain yet (nothing published). */
  fqdn: string;
  lines: PublishedLine[];
  /** '' when the provider took every line, else why not. */
  error: string;
}

export interface PublishResult {
  groups: PublishedGroup[];
  /** How many groups failed to publish (their error says why). */
  failed: number;
}

export interface GroupRow {
  id: number;
  host: string;
  cname_domain_id: number | null;
  backup_group_id: number | null;
}

type RecordRow = { group_id: number; line_id: number; ip: string; weight: number; backup: number };

/** IPs that may be in DNS: those of enabled nodes outside maintenance (and not being drained). */
async function servingIps(db: Kysely<Database>, drainNodeIds: readonly number[]) {
  const nodes = await db.selectFrom('nodes').select(['id', 'ips', 'enabled', 'maintenance']).execute();
  const serving = new Set<string>();
  for (const node of nodes) {
    if (node.enabled !== 1 || node.maintenance === 1 || drainNodeIds.includes(node.id)) continue;
    for (const ip of JSON.parse(node.ips) as string[]) serving.add(ip);
  }
  return serving;
}

/** The records each line of each group answers with, as the rules above decide. */
export function planLines(
  group: GroupRow,
  records: readonly RecordRow[],
  defaultLineId: number,
  serving: ReadonlySet<string>,
  down: ReadonlySet<string>,
): { line_id: number; records: AddressRecord[]; source: PublishedLine['source'] }[] {
  const usable = (rows: readonly RecordRow[]) =>
    rows.filter((row) => serving.has(row.ip) && !down.has(row.ip)).map((row) => ({ ip: row.ip, weight: row.weight }));
  const own = records.filter((row) => row.group_id === group.id);
  const lineIds = [...new Set(own.map((row) => row.line_id))].sort((a, b) => a - b);
  return lineIds.map((lineId) => {
    const onLine = own.filter((row) => row.line_id === lineId);
    const primary = usable(onLine.filter((row) => row.backup === 0));
    if (primary.length > 0) return { line_id: lineId, records: primary, source: 'primary' as const };
    const backup = usable(onLine.filter((row) => row.backup === 1));
    if (backup.length > 0) return { line_id: lineId, records: backup, source: 'backup' as const };
    if (group.backup_group_id !== null) {
      const other = records.filter((row) => row.group_id === group.backup_group_id && row.backup === 0);
      const sameLine = usable(other.filter((row) => row.line_id === lineId));
      const fallback = sameLine.length > 0 ? sameLine : usable(other.filter((row) => row.line_id === defaultLineId));
      if (fallback.length > 0) return { line_id: lineId, records: fallback, source: 'backup_group' as const };
    }
    return { line_id: lineId, records: [], source: 'removed' as const };
  });
}

/** Where a CNAME domain's records go: its DNS API account and zone. */
export async function cnameDomainTarget(
  db: Kysely<Database>,
  secrets: SecretBox,
  cnameDomainId: number,
): Promise<{ domain: string; zone: string; provider: DnsProvider; providerName: string }> {
  const domain = await db
    .selectFrom('cname_domains')
    .select(['domain', 'dnsapi_id', 'zone'])
    .where('id', '=', cnameDomainId)
    .executeTakeFirst();
  if (!domain) throw new Error(`CNAME domain ${cnameDomainId} does not exist`);
  if (domain.dnsapi_id === null) throw new Error(`CNAME domain ${domain.domain} has no DNS API account`);
  const account = await db.selectFrom('dnsapis').selectAll().where('id', '=', domain.dnsapi_id).executeTakeFirst();
  if (!account) throw new Error(`CNAME domain ${domain.domain}: DNS API ${domain.dnsapi_id} does not exist`);
  const provider = await providerOf(db, secrets, account);
  const zone = domain.zone || zoneOf(domain.domain, await provider.listZones());
  if (!zone) throw new Error(`CNAME domain ${domain.domain} is in no zone of DNS API ${account.name}`);
  return { domain: domain.domain, zone, provider, providerName: account.provider };
}

/** A line's code at one provider: null for its default line; an error for another provider's line. */
export function lineAt(line: LineRow | undefined, providerName: string): string | null {
  if (!line) throw new Error('a line of the group no longer exists');
  const code = providerLineCode(line, providerName);
  if (code === undefined) throw new Error(`line ${line.code} is a ${line.provider} line, not one of ${providerName}`);
  return code;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Writes every line group's A/AAAA records (or only those of `groupIds`) to its CNAME domain's DNS
 * provider: the chosen IPs minus those of disabled nodes, nodes in maintenance and IPs the health
 * checks found down; a line left empty takes its backup IPs, else the backup group's. Idempotent:
 * records already as planned are left alone. Each group's outcome is stored on it (publish_error,
 * published_at); one group's failure does not stop the others.
 */
export async function publishLineGroups(
  db: Kysely<Database>,
  secrets: SecretBox,
  log: FastifyBaseLogger,
  groupIds?: number[],
): Promise<PublishResult> {
  return publishGroups(db, secrets, log, { ...(groupIds && { groupIds }) });
}

/** publishLineGroups with the IPs of `drainNodeIds` left out as if those nodes were already in maintenance. */
export function publishGroups(
  db: Kysely<Database>,
  secrets: SecretBox,
  log: FastifyBaseLogger,
  options: { groupIds?: readonly number[]; drainNodeIds?: readonly number[] },
): Promise<PublishResult> {
  return inPublishTurn(db, () => publishNow(db, secrets, log, options));
}

export const PUBLISH_LEASE = 'line-group-publish';
// A master that dies while publishing holds the others back this long at most.
const PUBLISH_LEASE_MS = 30_000;
const PUBLISH_POLL_MS = 250;
const turns = new WeakMap<Kysely<Database>, Promise<void>>();

/**
 * Runs `work`, a write of line group or site records to the DNS providers, once no other write is
 * going on, on this master or another (under a lease, so a master that dies mid-way holds the rest
 * back one lease at most). A plan made before a change must not be written after the plan made after
 * it (a health switch on one master, an admin's edit on another), and two writers of one name could
 * both add a record at the provider: each plans once it has its turn, so the last to write has read
 * the newest state. Callers in this master queue in order rather than poll the lease.
 */
export function inPublishTurn<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const run = () => runUnderLease(db, PUBLISH_LEASE, work, { ttlMs: PUBLISH_LEASE_MS, pollMs: PUBLISH_POLL_MS });
  const result = (turns.get(db) ?? Promise.resolve()).then(run, run);
  turns.set(
    db,
    result.then(
      () => undefined,
      () => undefined,
    ),
  );
  return result;
}

/** What publishing reads once for every group: its lines, and each group's planned records. */
export async function planner(db: Kysely<Database>, drainNodeIds: readonly number[] = []) {
  const [records, lines, serving, down] = await Promise.all([
    db.selectFrom('line_group_records').select(['group_id', 'line_id', 'ip', 'weight', 'backup']).execute(),
    db.selectFrom('lines').selectAll().execute(),
    servingIps(db, drainNodeIds),
    downIps(db),
  ]);
  const defaultLine = lines.find((line) => line.provider === '' && line.code === DEFAULT_LINE_CODE);
  return {
    lines,
    linesOf: (group: GroupRow) => planLines(group, records, defaultLine?.id ?? 0, serving, down),
  };
}

async function publishNow(
  db: Kysely<Database>,
  secrets: SecretBox,
  log: FastifyBaseLogger,
  options: { groupIds?: readonly number[]; drainNodeIds?: readonly number[] },
): Promise<PublishResult> {
  const groups = await db
    .selectFrom('node_groups')
    .select(['id', 'host', 'cname_domain_id', 'backup_group_id'])
    .$if(options.groupIds !== undefined, (qb) => qb.where('id', 'in', [0, ...(options.groupIds ?? [])]))
    .orderBy('id')
    .execute();
  if (groups.length === 0) return { groups: [], failed: 0 };
  const plan = await planner(db, options.drainNodeIds ?? []);
  const { lines } = plan;
  const result: PublishResult = { groups: [], failed: 0 };
  for (const group of groups) {
    const planned = plan.linesOf(group);
    const outcome: PublishedGroup = {
      id: group.id,
      fqdn: '',
      lines: planned.map((entry) => ({
        line_id: entry.line_id,
        ips: entry.records.map((record) => record.ip),
        source: entry.source,
      })),
      error: '',
    };
    result.groups.push(outcome);
    if (!group.host || group.cname_domain_id === null) continue;
    try {
      const target = await cnameDomainTarget(db, secrets, group.cname_domain_id);
      outcome.fqdn = `${group.host}.${target.domain}`;
      for (const entry of planned) {
        const line = lineAt(
          lines.find((row) => row.id === entry.line_id),
          target.providerName,
        );
        await target.provider.setAddresses(target.zone, outcome.fqdn, line, entry.records);
      }
    } catch (error) {
      outcome.error = message(error);
      result.failed++;
      log.warn({ group: group.id, err: error }, 'line group publishing failed');
    }
    await db
      .updateTable('node_groups')
      .set({ publish_error: outcome.error, published_at: Date.now() })
      .where('id', '=', group.id)
      .execute();
  }
  return result;
}

/**
 * Removes a name's records on the given lines: what a group published before its host, CNAME
 * domain or lines changed, or before it was deleted. Errors are returned, not thrown.
 */
export async function retireRecords(
  db: Kysely<Database>,
  secrets: SecretBox,
  place: { host: string; cname_domain_id: number | null },
  lineIds: readonly number[],
): Promise<string> {
  if (!place.host || place.cname_domain_id === null || lineIds.length === 0) return '';
  const at = { host: place.host, cname_domain_id: place.cname_domain_id };
  return inPublishTurn(db, () => retireNow(db, secrets, at, lineIds));
}

async function retireNow(
  db: Kysely<Database>,
  secrets: SecretBox,
  place: { host: string; cname_domain_id: number },
  lineIds: readonly number[],
): Promise<string> {
  try {
    const target = await cnameDomainTarget(db, secrets, place.cname_domain_id);
    const lines = await db.selectFrom('lines').selectAll().where('id', 'in', lineIds).execute();
    for (const line of lines) {
      const code = providerLineCode(line, target.providerName);
      if (code === undefined) continue;
      await target.provider.setAddresses(target.zone, `${place.host}.${target.domain}`, code, []);
    }
    return '';
  } catch (error) {
    return message(error);
  }
}
