import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. What the health checks keep beside node_ip_states: each probe's streak per
// IP (the master's and every node's, so any master can decide), the IP-switch log, and the lease
// that lets one master at a time decide.
export const healthChecks = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('node_ip_probes')
        .addColumn('ip', 'text', (c) => c.notNull())
        // master, or node:{id}
        .addColumn('probe', 'text', (c) => c.notNull())
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('streak', 'integer', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('node_ip_probes_pk', ['ip', 'probe'])
        .execute();

      await db.schema
        .createTable('ip_switch_log')
        .addColumn('id', idType, id)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        // No reference: the log outlives a deleted node.
        .addColumn('node_id', 'integer', (c) => c.notNull())
        .addColumn('node_name', 'text', (c) => c.notNull())
        .addColumn('line_group', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('line', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('from_state', 'text', (c) => c.notNull())
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('votes', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ip_switch_log_created').on('ip_switch_log').column('created_at').execute();
      await db.schema.createIndex('ip_switch_log_ip').on('ip_switch_log').columns(['ip', 'id']).execute();

      await db.schema
        .createTable('health_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
};
