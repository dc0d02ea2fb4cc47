import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. blobs and blob_chunks: files every master sharing the database must be able to
// serve (agent and master release bundles, PostgreSQL backups and transfer exports), cut into rows of
// at most a few MiB so they stream in and out. A blob's row is written only once all its chunks are
// in: chunks without a blob row are an unfinished or refused write, and are swept.
// agent_releases.blob_id, sys_ops.blob_id: the release's bundle, the master upgrade's bundle.
export const blobs = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('blobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('blobs_kind').on('blobs').columns(['kind', 'created_at']).execute();

    await db.schema
      .createTable('blob_chunks')
      .addColumn('blob_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('blob_chunks_pk', ['blob_id', 'seq'])
      .execute();
    if (dialect === 'postgres') {
      // Bundles and dumps are compressed already: kept out of line without trying to compress them again.
      await sql`alter table blob_chunks alter column content set storage external`.execute(db);
    }

    await db.schema.alterTable('agent_releases').addColumn('blob_id', 'text').execute();
    await db.schema.alterTable('sys_ops').addColumn('blob_id', 'text').execute();
  },
});
