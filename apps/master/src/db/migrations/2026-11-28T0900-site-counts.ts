import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. site_counts: how many sites each user owns, kept by triggers on sites, so the
// unfiltered site list reads its total instead of counting the user's rows (a count(*) over 100k
// sites cost several ms on every page). Triggers, not application code: every write path (creates,
// batch deletes, a user's deletion cascading to their sites, an owner change, another master, a
// manual fix in SQL) keeps the count, inside the writing transaction. On PostgreSQL the upsert and
// the decrement lock the user's count row until commit, so concurrent writers add up exactly.
// A count row goes with its user (cascade); a site's decrement finds no row then and does nothing.
export const siteCounts = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('site_counts')
      .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('sites', 'bigint', (c) => c.notNull())
      .execute();
    // Triggers first, then the backfill: on PostgreSQL CREATE TRIGGER locks sites against writes
    // until this migration commits, so no write falls between the count and the triggers.
    if (dialect === 'postgres') {
      await sql`
        create function site_counts_add() returns trigger language plpgsql as $$
        begin
          insert into site_counts (user_id, sites) values (new.user_id, 1)
            on conflict (user_id) do update set sites = site_counts.sites + 1;
          return null;
        end $$
      `.execute(db);
      await sql`
        create function site_counts_remove() returns trigger language plpgsql as $$
        begin
          update site_counts set sites = sites - 1 where user_id = old.user_id;
          return null;
        end $$
      `.execute(db);
      await sql`create trigger site_counts_insert after insert on sites
        for each row execute function site_counts_add()`.execute(db);
      await sql`create trigger site_counts_delete after delete on sites
        for each row execute function site_counts_remove()`.execute(db);
      await sql`create trigger site_counts_transfer_from after update of user_id on sites
        for each row when (old.user_id is distinct from new.user_id) execute function site_counts_remove()`.execute(db);
      await sql`create trigger site_counts_transfer_to after update of user_id on sites
        for each row when (old.user_id is distinct from new.user_id) execute function site_counts_add()`.execute(db);
    } else {
      await sql`
        create trigger site_counts_insert after insert on sites begin
          insert into site_counts (user_id, sites) values (new.user_id, 1)
            on conflict (user_id) do update set sites = sites + 1;
        end
      `.execute(db);
      await sql`
        create trigger site_counts_delete after delete on sites begin
          update site_counts set sites = sites - 1 where user_id = old.user_id;
        end
      `.execute(db);
      await sql`
        create trigger site_counts_transfer after update of user_id on sites
        when old.user_id is not new.user_id begin
          update site_counts set sites = sites - 1 where user_id = old.user_id;
          insert into site_counts (user_id, sites) values (new.user_id, 1)
            on conflict (user_id) do update set sites = sites + 1;
        end
      `.execute(db);
    }
    await sql`insert into site_counts (user_id, sites) select user_id, count(*) from sites group by user_id`.execute(
      db,
    );
  },
});
