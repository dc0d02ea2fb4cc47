import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. nodes.clock_offset_seconds: how far the node's clock runs ahead of the master's
// (negative: behind), null until its first report; nodes.clock_skew_noticed_at: when the admins were
// told the offset passed the threshold (null again once it is back under, so a new episode is told).
export const nodeClock = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('nodes').addColumn('clock_offset_seconds', 'integer').execute();
    await db.schema.alterTable('nodes').addColumn('clock_skew_noticed_at', 'bigint').execute();
  },
});
