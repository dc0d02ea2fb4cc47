import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. A refund order names the paid online recharge it gives money back from, so
// the refunds of one order are summed (never more than it) through one index.
export const orderRefunds = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').addColumn('refund_of', 'bigint').execute();
    await db.schema.createIndex('orders_refund_of').on('orders').columns(['refund_of']).execute();
  },
});
