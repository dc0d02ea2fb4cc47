import type { FleetLineGroup, FleetLineRecord, LineGroupUpdate, LineGroupView, PlanChange } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { readLineGroups } from '../line-groups/line-groups.repository.ts';
import {
  type DeletedLineGroup,
  deleteLineGroupIn,
  type LineGroupServices,
  publishDeletedLineGroup,
  publishSavedLineGroup,
  type SavedLineGroup,
  saveLineGroupIn,
} from '../line-groups/line-groups.service.ts';
import { type LineRow, listLines } from '../line-groups/lines.repository.ts';
import { refusalAt } from './document.ts';
import { fieldChanges } from './plan.ts';
import { type Held, keyed } from './state.ts';

/** Names of the rows a line group refers to. */
interface LineGroupRefs {
  domains: Map<number, string>;
  groups: Map<number, string>;
  lines: LineRow[];
  nodes: { name: string; ips: string[] }[];
}

async function lineGroupRefs(db: Kysely<Database>): Promise<LineGroupRefs> {
  const domains = await db.selectFrom('cname_domains').select(['id', 'domain']).execute();
  const groups = await db.selectFrom('node_groups').select(['id', 'name']).execute();
  const nodes = await db.selectFrom('nodes').select(['name', 'ips']).orderBy('id').execute();
  return {
    domains: new Map(domains.map((row) => [row.id, row.domain])),
    groups: new Map(groups.map((row) => [row.id, row.name])),
    lines: await listLines(db),
    nodes: nodes.map((node) => ({ name: node.name, ips: JSON.parse(node.ips) as string[] })),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const recordKey = (record: FleetLineRecord) =>
  [record.line, record.provider ?? '', record.backup ? '1' : '0', record.ip].join('\u0000');
/** Records in one order on both sides of a plan: by line, then primaries before backups, then IP. */
const sortRecords = (records: FleetLineRecord[]) => records.sort((a, b) => compare(recordKey(a), recordKey(b)));

/** A line's provider is written only where its code alone names several lines. */
const sharedCode = (refs: LineGroupRefs, code: string) => refs.lines.filter((line) => line.code === code).length > 1;

function fleetLineGroup(view: LineGroupView, refs: LineGroupRefs): FleetLineGroup {
  const lines = view.records.flatMap((record): FleetLineRecord[] => {
    const line = refs.lines.find((each) => each.id === record.line_id);
    if (!line) return [];
    // A record whose IP no node holds any more is written without a node: its import asks for one.
    const node = refs.nodes.find((each) => each.ips.includes(record.ip));
    return [
      {
        line: line.code,
        ...(sharedCode(refs, line.code) && { provider: line.provider as FleetLineRecord['provider'] }),
        ...(node && { node: node.name }),
        ip: record.ip,
        weight: record.weight,
        backup: record.backup,
      } as FleetLineRecord,
    ];
  });
  return {
    name: view.name,
    cname_domain: view.cname_domain_id === null ? null : (refs.domains.get(view.cname_domain_id) ?? null),
    host: view.host,
    backup_group: view.backup_group_id === null ? null : (refs.groups.get(view.backup_group_id) ?? null),
    is_default: view.is_default,
    lines: sortRecords(lines),
  };
}

/** The line groups by name, in name order. */
export async function loadLineGroups(db: Kysely<Database>): Promise<Map<string, Held<FleetLineGroup>>> {
  const refs = await lineGroupRefs(db);
  const views = (await readLineGroups(db)).sort((a, b) => compare(a.name, b.name));
  return keyed(
    'line_groups',
    views.map((view) => ({ id: view.id, name: view.name, object: fleetLineGroup(view, refs) })),
  );
}

/** A document group as the export writes it: defaults filled in, records in export order. */
function normalized(item: FleetLineGroup, refs: LineGroupRefs): FleetLineGroup {
  if (!item.lines) return item;
  const lines = item.lines.map((record) => {
    const { provider, ...rest } = record;
    const keep = provider !== undefined && sharedCode(refs, record.line);
    return { ...rest, ...(keep && { provider }), weight: record.weight ?? 1, backup: record.backup ?? false };
  });
  return { ...item, lines: sortRecords(lines as FleetLineRecord[]) };
}

/** The line_groups section's changes: by name, a group the section leaves out deleted. */
export async function lineGroupChanges(
  db: Kysely<Database>,
  items: readonly FleetLineGroup[],
  current: Map<string, Held<FleetLineGroup>>,
): Promise<PlanChange[]> {
  const refs = await lineGroupRefs(db);
  const changes: PlanChange[] = [];
  const seen = new Set<string>();
  let defaultAt: number | null = null;
  for (const [index, item] of items.entries()) {
    const path = `line_groups[${index}]`;
    if (seen.has(item.name)) throw invalidParam(`${path}.name`, `"${item.name}" is named twice in line_groups`);
    seen.add(item.name);
    if (item.is_default) {
      if (defaultAt !== null)
        throw invalidParam(`${path}.is_default`, `only one line group is the default (line_groups[${defaultAt}] is)`);
      defaultAt = index;
    }
    const held = current.get(item.name);
    if (!held) {
      changes.push({ action: 'create', kind: 'line_group', name: item.name });
      continue;
    }
    const fields = fieldChanges(held.object, normalized(item, refs), '', new Set(['']));
    if (fields.length > 0) changes.push({ action: 'update', kind: 'line_group', name: item.name, fields });
  }
  for (const name of current.keys()) if (!seen.has(name)) changes.push({ action: 'delete', kind: 'line_group', name });
  return changes;
}

/** The record's line and IP as the service takes them; errors by the record's path. */
function lineRecord(refs: LineGroupRefs, record: FleetLineRecord, path: string) {
  const lines = refs.lines.filter(
    (line) => line.code === record.line && (record.provider === undefined || line.provider === record.provider),
  );
  const which = record.provider === undefined ? '' : ` of provider "${record.provider}"`;
  const [line] = lines;
  if (!line) throw invalidParam(`${path}.line`, `line "${record.line}"${which} does not exist`);
  if (lines.length > 1) {
    const providers = lines.map((each) => each.provider || '(every provider)').join(', ');
    throw invalidParam(`${path}.provider`, `names which of the lines "${record.line}" (${providers}) is meant`);
  }
  const nodes = refs.nodes.filter((node) => node.name === record.node);
  const [node] = nodes;
  if (!node) throw invalidParam(`${path}.node`, `node "${record.node}" does not exist`);
  if (nodes.length > 1)
    throw invalidParam(`${path}.node`, `${nodes.length} nodes are named "${record.node}"; rename all but one`);
  if (!node.ips.includes(record.ip))
    throw invalidParam(`${path}.ip`, `${record.ip} is not an IP of node ${record.node}`);
  return {
    line_id: line.id,
    ip: record.ip,
    ...(record.weight !== undefined && { weight: record.weight }),
    ...(record.backup !== undefined && { backup: record.backup }),
  };
}

/** The line-group calls' names as the document writes them. */
const LINE_GROUP_NAMES: Record<string, string> = {
  records: 'lines',
  cname_domain_id: 'cname_domain',
  backup_group_id: 'backup_group',
  line_id: 'line',
};

/** What the line groups' changes leave to publish once the import commits. */
export interface LineGroupPublishing {
  saved: SavedLineGroup[];
  deleted: DeletedLineGroup[];
}

/**
 * Makes the line groups' changes in `trx` through the line groups' service: new groups first (so a
 * backup group may be one of them), then every created or changed group, then the deletions.
 */
export async function applyLineGroupChanges(
  trx: Transaction<Database>,
  items: readonly FleetLineGroup[],
  current: Map<string, Held<FleetLineGroup>>,
  changes: readonly PlanChange[],
): Promise<LineGroupPublishing> {
  const actionOf = (name: string) =>
    changes.find((change) => change.kind === 'line_group' && change.name === name)?.action;
  const ids = new Map([...current].map(([name, held]) => [name, held.id]));
  for (const [index, item] of items.entries()) {
    if (actionOf(item.name) !== 'create') continue;
    try {
      ids.set(item.name, (await saveLineGroupIn(trx, null, { name: item.name })).id);
    } catch (error) {
      throw refusalAt(error, `line_groups[${index}]`, LINE_GROUP_NAMES);
    }
  }
  const refs = await lineGroupRefs(trx);
  const saved: SavedLineGroup[] = [];
  for (const [index, item] of items.entries()) {
    const path = `line_groups[${index}]`;
    const id = ids.get(item.name);
    if (actionOf(item.name) === undefined || id === undefined) continue;
    const { name: _name, cname_domain, backup_group, lines, ...fields } = item;
    const body: LineGroupUpdate = { ...fields };
    if (cname_domain !== undefined) {
      const domainId = cname_domain === null ? null : [...refs.domains].find(([, each]) => each === cname_domain)?.[0];
      if (domainId === undefined)
        throw invalidParam(`${path}.cname_domain`, `CNAME domain "${cname_domain}" does not exist`);
      body.cname_domain_id = domainId;
    }
    if (backup_group !== undefined) {
      const backupId =
        backup_group === null
          ? null
          : items.some((each) => each.name === backup_group)
            ? ids.get(backup_group)
            : undefined;
      if (backupId === undefined)
        throw invalidParam(`${path}.backup_group`, `line group "${backup_group}" is not one of line_groups`);
      body.backup_group_id = backupId;
    }
    if (lines !== undefined) body.records = lines.map((record, at) => lineRecord(refs, record, `${path}.lines[${at}]`));
    try {
      saved.push(await saveLineGroupIn(trx, id, body));
    } catch (error) {
      throw refusalAt(error, path, LINE_GROUP_NAMES);
    }
  }
  const deleted: DeletedLineGroup[] = [];
  for (const change of changes.filter((each) => each.kind === 'line_group' && each.action === 'delete')) {
    deleted.push(await deleteLineGroupIn(trx, current.get(change.name)?.id ?? 0));
  }
  return { saved, deleted };
}

/**
 * After the commit, what the single calls do after theirs: deleted groups' records leave the DNS
 * (their dependants and sites republish), then each saved group retires its old records and
 * publishes. A provider's refusal is stored on the group (publish_error), as for the single calls.
 */
export async function publishLineGroupChanges(services: LineGroupServices, publishing: LineGroupPublishing) {
  for (const deleted of publishing.deleted) {
    try {
      await publishDeletedLineGroup(services, deleted);
    } catch (error) {
      services.log.warn({ group: deleted.id, error }, 'an imported line group deletion was not published');
    }
  }
  for (const saved of publishing.saved) {
    try {
      await publishSavedLineGroup(services, saved);
    } catch (error) {
      services.log.warn({ group: saved.id, error }, 'an imported line group was not published');
    }
  }
}
