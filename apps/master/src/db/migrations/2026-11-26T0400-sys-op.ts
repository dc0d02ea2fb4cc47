import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. /sys/op: agent release bundles, their rolling upgrades, the commands agents
// take (self-test, upgrade, new master address) with their answers, and the master's own upgrades
// and transfers with their logs.
export const sysOp = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('agent_releases')
        .addColumn('id', idType, id)
        .addColumn('version', 'text', (c) => c.notNull().unique())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('agent_upgrades')
        .addColumn('id', idType, id)
        .addColumn('release_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('wave', 'integer', (c) => c.notNull())
        .addColumn('wave_percent', 'integer', (c) => c.notNull())
        .addColumn('max_failures', 'integer', (c) => c.notNull())
        .addColumn('node_timeout_s', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();

      await db.schema
        .createTable('agent_checks')
        .addColumn('id', idType, id)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      // kind: self-test (ref: agent_checks), upgrade (ref: agent_upgrades), master-address (ref: sys_ops).
      await db.schema
        .createTable('agent_commands')
        .addColumn('id', idType, id)
        .addColumn('node_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'integer', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // waiting (an upgrade's later wave), pending, sent, done, failed, rolled_back, timeout, cancelled
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('wave', 'integer')
        .addColumn('from_version', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('result', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('log', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_commands_node').on('agent_commands').columns(['node_id', 'state']).execute();
      await db.schema.createIndex('agent_commands_ref').on('agent_commands').columns(['kind', 'ref_id']).execute();

      await db.schema
        .createTable('sys_ops')
        .addColumn('id', idType, id)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('log', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
    },
  };
};
