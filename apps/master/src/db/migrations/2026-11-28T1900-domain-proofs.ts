import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. domain_proofs: a user's proof of owning a site domain (as written, `*.` kept
// for a wildcard). The token is the TXT value at `_rampart-challenge.<domain>` and stays for good,
// so a record once created keeps working; state pending or proved; method how it was proved (txt,
// cname, or live: on the edges before proof was required). A proof outlives the sites that used it.
export const domainProofs = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('domain_proofs')
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('method', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('proved_at', 'bigint')
      .addColumn('last_checked_at', 'bigint')
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint('domain_proofs_pk', ['user_id', 'domain'])
      .execute();
    // Whether another user proved a name: by domain and state.
    await db.schema.createIndex('domain_proofs_domain').on('domain_proofs').columns(['domain', 'state']).execute();
  },
});
