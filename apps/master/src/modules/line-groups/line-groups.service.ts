import { LINE_WEIGHT, type LineGroupBody, type LineGroupUpdate, type LineGroupView } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { groupsBackedBy, readLineGroups } from './line-groups.repository.ts';
import { providerLineCode } from './lines.repository.ts';
import { publishLineGroups, retireRecords } from './publish.ts';
import { publishSiteCnames } from './site-cnames.ts';

type Db = Kysely<Database> | Transaction<Database>;

const notFound = (id: number) => new AppError('not_found', `line group ${id} does not exist`);

/** Every IP of every node: a line group's records may only name these. */
async function nodeIps(db: Db): Promise<Set<string>> {
  const nodes = await db.selectFrom('nodes').select('ips').execute();
  return new Set(nodes.flatMap((node) => JSON.parse(node.ips) as string[]));
}

/** The checks of a whole group as it will be stored; each refusal names its field. */
async function checkGroup(db: Db, selfId: number | null, group: Required<Omit<LineGroupBody, 'is_default'>>) {
  let providerName: string | null = null;
  if (group.cname_domain_id !== null) {
    const domain = await db
      .selectFrom('cname_domains')
      .leftJoin('dnsapis', 'dnsapis.id', 'cname_domains.dnsapi_id')
      .select(['cname_domains.domain', 'dnsapis.provider'])
      .where('cname_domains.id', '=', group.cname_domain_id)
      .executeTakeFirst();
    if (!domain)
      throw new AppError('not_found', `cname_domain_id: CNAME domain ${group.cname_domain_id} does not exist`);
    providerName = domain.provider;
    if (group.host) {
      const taken = await db
        .selectFrom('node_groups')
        .select(['id', 'name'])
        .where('cname_domain_id', '=', group.cname_domain_id)
        .where('host', '=', group.host)
        .$if(selfId !== null, (qb) => qb.where('id', '!=', selfId ?? 0))
        .executeTakeFirst();
      if (taken)
        throw new AppError('conflict', `host: ${group.host}.${domain.domain} is already line group ${taken.name}'s`);
    }
  }
  if (group.backup_group_id !== null) {
    if (group.backup_group_id === selfId) throw invalidParam('backup_group_id', 'cannot be the line group itself');
    const backup = await db
      .selectFrom('node_groups')
      .select('id')
      .where('id', '=', group.backup_group_id)
      .executeTakeFirst();
    if (!backup) throw new AppError('not_found', `backup_group_id: line group ${group.backup_group_id} does not exist`);
  }
  const ips = await nodeIps(db);
  const lines = await db.selectFrom('lines').selectAll().execute();
  const seen = new Set<string>();
  for (const [index, record] of group.records.entries()) {
    const line = lines.find((entry) => entry.id === record.line_id);
    if (!line) throw new AppError('not_found', `records/${index}/line_id: line ${record.line_id} does not exist`);
    if (providerName && providerLineCode(line, providerName) === undefined) {
      throw invalidParam(
        `records/${index}/line_id`,
        `line ${line.code} is a ${line.provider} line; the CNAME domain publishes through ${providerName}`,
      );
    }
    if (!ips.has(record.ip)) throw invalidParam(`records/${index}/ip`, `${record.ip} is not an IP of any node`);
    const key = `${record.line_id}|${record.ip}|${record.backup === true}`;
    if (seen.has(key)) throw invalidParam(`records/${index}/ip`, `${record.ip} is on line ${line.code} twice`);
    seen.add(key);
  }
}

async function replaceRecords(trx: Transaction<Database>, groupId: number, records: LineGroupBody['records']) {
  await trx.deleteFrom('line_group_records').where('group_id', '=', groupId).execute();
  if (!records || records.length === 0) return;
  await trx
    .insertInto('line_group_records')
    .values(
      records.map((record) => ({
        group_id: groupId,
        line_id: record.line_id,
        ip: record.ip,
        weight: record.weight ?? LINE_WEIGHT.default,
        backup: record.backup ? 1 : 0,
      })),
    )
    .execute();
}

export interface LineGroupServices {
  db: Kysely<Database>;
  secrets: SecretBox;
  log: FastifyBaseLogger;
}

/** Publishes a group and the groups that fall back to it; the group as it now reads. */
async function publishAround({ db, secrets, log }: LineGroupServices, id: number): Promise<LineGroupView> {
  await publishLineGroups(db, secrets, log, [id, ...(await groupsBackedBy(db, [id]))]);
  await publishSiteCnames(db, secrets, log, { groupIds: [id] });
  const [view] = await readLineGroups(db, id);
  if (!view) throw notFound(id);
  return view;
}

/** What a save in a caller's transaction leaves to do once it commits. */
export interface SavedLineGroup {
  id: number;
  /** The group before the save; null for a new one. */
  before: LineGroupView | null;
  /** Lines whose records at the old host leave the DNS. */
  retired: number[];
}

/**
 * Creates (`id` null) or changes a line group in `trx` with the checks of POST and PUT
 * /v1/node-groups; publish it with `publishSavedLineGroup` after the commit.
 */
export async function saveLineGroupIn(
  trx: Transaction<Database>,
  id: number | null,
  body: LineGroupUpdate,
): Promise<SavedLineGroup> {
  const [current] = id === null ? [] : await readLineGroups(trx, id);
  if (id !== null && !current) throw notFound(id);
  const group = {
    name: body.name ?? current?.name ?? '',
    cname_domain_id: body.cname_domain_id === undefined ? (current?.cname_domain_id ?? null) : body.cname_domain_id,
    host: body.host ?? current?.host ?? '',
    backup_group_id: body.backup_group_id === undefined ? (current?.backup_group_id ?? null) : body.backup_group_id,
    records: body.records ?? current?.records ?? [],
  };
  await checkGroup(trx, id, group);
  if (body.is_default) await trx.updateTable('node_groups').set({ is_default: 0 }).execute();
  if (!current) {
    const row = await trx
      .insertInto('node_groups')
      .values({
        name: group.name,
        cname_domain_id: group.cname_domain_id,
        host: group.host,
        backup_group_id: group.backup_group_id,
        is_default: body.is_default ? 1 : 0,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceRecords(trx, row.id, group.records);
    return { id: row.id, before: null, retired: [] };
  }
  await trx
    .updateTable('node_groups')
    .set({
      name: group.name,
      cname_domain_id: group.cname_domain_id,
      host: group.host,
      backup_group_id: group.backup_group_id,
      ...(body.is_default !== undefined && { is_default: body.is_default ? 1 : 0 }),
    })
    .where('id', '=', current.id)
    .execute();
  if (body.records) await replaceRecords(trx, current.id, body.records);
  const oldLines = [...new Set(current.records.map((record) => record.line_id))];
  const moved = group.host !== current.host || group.cname_domain_id !== current.cname_domain_id;
  const newLines = new Set(group.records.map((record) => record.line_id));
  return {
    id: current.id,
    before: current,
    retired: moved ? oldLines : oldLines.filter((line) => !newLines.has(line)),
  };
}

/** After the commit: the old name's (or dropped lines') records leave the DNS, then the group publishes. */
export async function publishSavedLineGroup(services: LineGroupServices, saved: SavedLineGroup) {
  if (saved.before) {
    const error = await retireRecords(services.db, services.secrets, saved.before, saved.retired);
    if (error) services.log.warn({ group: saved.id, error }, 'old line group records were not removed');
  }
  return publishAround(services, saved.id);
}

export async function createLineGroup(services: LineGroupServices, body: LineGroupBody): Promise<LineGroupView> {
  const saved = await services.db.transaction().execute((trx) => saveLineGroupIn(trx, null, body));
  return publishSavedLineGroup(services, saved);
}

export async function updateLineGroup(
  services: LineGroupServices,
  id: number,
  body: LineGroupUpdate,
): Promise<LineGroupView> {
  const saved = await services.db.transaction().execute((trx) => saveLineGroupIn(trx, id, body));
  return publishSavedLineGroup(services, saved);
}

/** What a delete in a caller's transaction leaves to do once it commits. */
export interface DeletedLineGroup {
  id: number;
  before: LineGroupView;
  backedBy: number[];
  sites: number[];
}

/** Deletes a line group in `trx` as DELETE /v1/node-groups does; then `publishDeletedLineGroup`. */
export async function deleteLineGroupIn(trx: Transaction<Database>, id: number): Promise<DeletedLineGroup> {
  const [current] = await readLineGroups(trx, id);
  if (!current) throw notFound(id);
  const dependants = await groupsBackedBy(trx, [id]);
  const moved = await trx.selectFrom('sites').select('id').where('line_group_id', '=', id).execute();
  await trx.updateTable('nodes').set({ group_id: null }).where('group_id', '=', id).execute();
  await trx.updateTable('sites').set({ line_group_id: null }).where('line_group_id', '=', id).execute();
  await trx.updateTable('node_groups').set({ backup_group_id: null }).where('backup_group_id', '=', id).execute();
  await trx.deleteFrom('line_group_records').where('group_id', '=', id).execute();
  await trx.deleteFrom('node_groups').where('id', '=', id).execute();
  return { id, before: current, backedBy: dependants, sites: moved.map((site) => site.id) };
}

/** After the commit: the group's records leave the DNS, its dependants and sites republish. */
export async function publishDeletedLineGroup(services: LineGroupServices, deleted: DeletedLineGroup) {
  const { db, secrets, log } = services;
  const lines = [...new Set(deleted.before.records.map((record) => record.line_id))];
  const error = await retireRecords(db, secrets, deleted.before, lines);
  if (error) log.warn({ group: deleted.id, error }, 'deleted line group records were not removed');
  // Groups backed by a group deleted in the same import are gone too.
  if (deleted.backedBy.length > 0) {
    const rows = await db.selectFrom('node_groups').select('id').where('id', 'in', deleted.backedBy).execute();
    if (rows.length > 0)
      await publishLineGroups(
        db,
        secrets,
        log,
        rows.map((row) => row.id),
      );
  }
  // Its sites fall back to the default line group.
  if (deleted.sites.length > 0) await publishSiteCnames(db, secrets, log, { siteIds: deleted.sites });
}

export async function deleteLineGroup(services: LineGroupServices, id: number): Promise<void> {
  const deleted = await services.db.transaction().execute((trx) => deleteLineGroupIn(trx, id));
  await publishDeletedLineGroup(services, deleted);
}
