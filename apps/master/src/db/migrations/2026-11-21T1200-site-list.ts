import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. Indexes for the site list's filters and sorts (pages and counts stay index-only
// at 100k sites per user).
export const siteList = (): Migration => ({
  async up(db: Kysely<unknown>) {
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('sites').columns(columns).execute();
    await index('sites_user_enabled', ['user_id', 'enabled', 'id']);
    await index('sites_user_https', ['user_id', 'https', 'id']);
    await index('sites_user_group_enabled_domain', ['user_id', 'group_id', 'enabled', 'primary_domain']);
    await index('sites_user_domain', ['user_id', 'primary_domain']);
    await index('sites_user_updated', ['user_id', 'updated_at']);
    await index('sites_user_cert', ['user_id', 'cert_id']);
  },
});
