import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Whether each node IP is up or down as the health checks last decided: DNS
// publishing leaves the down ones out of the line groups' records.
export const nodeIpStates = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('node_ip_states')
      .addColumn('ip', 'text', (c) => c.primaryKey())
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('up'))
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('node_ip_states_node').on('node_ip_states').column('node_id').execute();
  },
});
