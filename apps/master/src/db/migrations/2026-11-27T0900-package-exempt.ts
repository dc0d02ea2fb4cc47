import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. users.package_exempt (0/1): a customer account an admin lets create sites and
// streams without an active package while the `require_package` setting is on.
export const packageExempt = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('package_exempt', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
});
