import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. origin_health: each node's view of the origins of sites with a health check,
// one row per (node, site, origin address), replaced whole by each status report that carries it.
// Rows go with their node (cascade); a deleted site's rows go at the node's next report.
export const originHealth = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('origin_health')
      .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('site_id', 'bigint', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('up', 'integer', (c) => c.notNull())
      .addColumn('checked_at', 'bigint', (c) => c.notNull())
      .addColumn('error', 'text', (c) => c.notNull())
      .addColumn('reported_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('origin_health_node').on('origin_health').column('node_id').execute();
    await db.schema.createIndex('origin_health_site').on('origin_health').columns(['site_id', 'node_id']).execute();
  },
});
