import type { OriginHealth, OriginHealthEntry } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

const BATCH = 500;

/** A node's report replaces everything it said before (sites whose check went off drop out). */
export async function replaceOriginHealth(
  trx: Transaction<Database>,
  nodeId: number,
  entries: readonly OriginHealthEntry[],
  reportedAt: number,
): Promise<void> {
  await trx.deleteFrom('origin_health').where('node_id', '=', nodeId).execute();
  for (let i = 0; i < entries.length; i += BATCH) {
    await trx
      .insertInto('origin_health')
      .values(
        entries.slice(i, i + BATCH).map((entry) => ({
          node_id: nodeId,
          site_id: entry.site_id,
          address: entry.address,
          port: entry.port,
          up: entry.up ? 1 : 0,
          checked_at: entry.checked_at,
          error: entry.error,
          reported_at: reportedAt,
        })),
      )
      .execute();
  }
}

/** Each enabled node's last report on one site's origins, by node, then address and port. */
export async function siteOriginHealth(db: Kysely<Database>, siteId: number): Promise<OriginHealth['nodes']> {
  const rows = await db
    .selectFrom('origin_health')
    .innerJoin('nodes', 'nodes.id', 'origin_health.node_id')
    .select([
      'nodes.id as node_id',
      'nodes.name',
      'origin_health.address',
      'origin_health.port',
      'origin_health.up',
      'origin_health.checked_at',
      'origin_health.error',
      'origin_health.reported_at',
    ])
    .where('origin_health.site_id', '=', siteId)
    .where('nodes.enabled', '=', 1)
    .orderBy('nodes.id')
    .orderBy('origin_health.address')
    .orderBy('origin_health.port')
    .execute();
  const nodes: OriginHealth['nodes'] = [];
  for (const row of rows) {
    const nodeId = Number(row.node_id);
    let node = nodes.at(-1);
    if (node?.node_id !== nodeId) {
      node = {
        node_id: nodeId,
        name: row.name,
        reported_at: new Date(Number(row.reported_at)).toISOString(),
        origins: [],
      };
      nodes.push(node);
    }
    const checkedAt = Number(row.checked_at);
    node.origins.push({
      address: row.address,
      port: Number(row.port),
      up: Number(row.up) === 1,
      checked_at: checkedAt > 0 ? new Date(checkedAt * 1000).toISOString() : null,
      error: row.error,
    });
  }
  return nodes;
}
