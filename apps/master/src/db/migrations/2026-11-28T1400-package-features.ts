import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. packages.forbidden_features: JSON list of the site features a package does
// not include (see PACKAGE_FEATURES); '[]' allows every one, so packages made before the switches
// keep every feature. The https and waf flags were stored but never enforced, and most packages
// carry them as the column default 0: they are read from forbidden_features from now on, and set to
// 1 here so the old columns agree with it.
export const packageFeatures = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('packages')
      .addColumn('forbidden_features', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await sql`UPDATE packages SET https = 1, waf = 1`.execute(db);
  },
});
