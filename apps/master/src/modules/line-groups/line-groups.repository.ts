import type { LineGroupView } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, NodeGroupsTable } from '../../db/schema.ts';

export type LineGroupRow = Selectable<NodeGroupsTable>;

/** Every line group, or one, with its CNAME domain's name, records and node count, as the API shows them. */
export async function readLineGroups(db: Kysely<Database>, id?: number): Promise<LineGroupView[]> {
  const groups = await db
    .selectFrom('node_groups')
    .leftJoin('cname_domains', 'cname_domains.id', 'node_groups.cname_domain_id')
    .selectAll('node_groups')
    .select('cname_domains.domain as cname_domain')
    .$if(id !== undefined, (qb) => qb.where('node_groups.id', '=', id ?? 0))
    .orderBy('node_groups.id')
    .execute();
  if (groups.length === 0) return [];
  const ids = groups.map((group) => group.id);
  const [records, counts] = await Promise.all([
    db
      .selectFrom('line_group_records')
      .select(['group_id', 'line_id', 'ip', 'weight', 'backup'])
      .where('group_id', 'in', ids)
      .orderBy('line_id')
      .orderBy('backup')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('nodes')
      .select(['group_id', (eb) => eb.fn.countAll().as('n')])
      .where('group_id', 'in', ids)
      .groupBy('group_id')
      .execute(),
  ]);
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    cname_domain_id: group.cname_domain_id,
    host: group.host,
    fqdn: group.host && group.cname_domain ? `${group.host}.${group.cname_domain}` : '',
    backup_group_id: group.backup_group_id,
    is_default: group.is_default === 1,
    records: records
      .filter((record) => record.group_id === group.id)
      .map((record) => ({
        line_id: record.line_id,
        ip: record.ip,
        weight: record.weight,
        backup: record.backup === 1,
      })),
    node_count: Number(counts.find((count) => count.group_id === group.id)?.n ?? 0),
    publish_error: group.publish_error,
    published_at: group.published_at === null ? null : new Date(group.published_at).toISOString(),
  }));
}

/** The groups that fall back to any of `ids`: their answers change with those groups' IPs. */
export async function groupsBackedBy(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('node_groups').select('id').where('backup_group_id', 'in', ids).execute();
  return rows.map((row) => row.id);
}
