import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. At most one agent upgrade runs at a time, held by the database itself: two
// administrators starting a rollout at the same moment (on two masters, or two requests on one)
// both passed the service's "one is still running" check. Rollouts already running beside another
// keep the newest; the older ones end as cancelled.
export const oneRunningUpgrade = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`update agent_upgrades set state = 'cancelled', reason = 'another rollout was started beside it',
      finished_at = ${Date.now()}
      where state = 'running' and id < (select max(id) from agent_upgrades where state = 'running')`.execute(db);
    await sql`create unique index agent_upgrades_one_running on agent_upgrades (state) where state = 'running'`.execute(
      db,
    );
  },
});
