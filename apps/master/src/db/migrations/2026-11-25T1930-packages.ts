import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Packages and money: package groups, packages, upgrade packs, discounts,
// coupons and their history, user packages and their upgrades, and orders (every balance change).
// Money is whole cents in bigint columns.
export const packages = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const int = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('package_groups')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', int)
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('packages')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('group_id', 'bigint', (c) => c.references('package_groups.id').onDelete('set null'))
        .addColumn('line_group_id', 'bigint', (c) => c.references('node_groups.id').onDelete('set null'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        // null: not sold for that term.
        .addColumn('price_month', 'bigint')
        .addColumn('price_quarter', 'bigint')
        .addColumn('price_year', 'bigint')
        .addColumn('traffic_gb', 'bigint', int)
        .addColumn('bandwidth_mbps', 'bigint', int)
        .addColumn('max_sites', 'integer', int)
        .addColumn('max_domains', 'integer', int)
        .addColumn('max_streams', 'integer', int)
        .addColumn('max_ports', 'integer', int)
        .addColumn('billing', 'text', (c) => c.notNull().defaultTo('traffic'))
        .addColumn('https', 'integer', int)
        .addColumn('waf', 'integer', int)
        .addColumn('cc_rule_group_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('custom_cname', 'integer', int)
        .addColumn('sort', 'integer', int)
        .addColumn('on_sale', 'integer', int)
        // null: no limit; counts down with each sale.
        .addColumn('stock', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('package_ups')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('package_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('price_month', 'bigint', (c) => c.notNull())
        .addColumn('on_sale', 'integer', int)
        .addColumn('sort', 'integer', int)
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('discounts')
        .addColumn('id', idType, id)
        .addColumn('package_id', 'bigint', (c) => c.references('packages.id').onDelete('cascade'))
        .addColumn('term', 'text', (c) => c.notNull())
        .addColumn('percent', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('coupons')
        .addColumn('id', idType, id)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addColumn('min_spend', 'bigint', int)
        .addColumn('package_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('starts_at', 'bigint')
        .addColumn('ends_at', 'bigint')
        .addColumn('uses_per_user', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('uses_total', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('used', 'integer', int)
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('user_packages')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('package_id', 'bigint', (c) => c.notNull().references('packages.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('term', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('auto_renew', 'integer', int)
        // 1 while this month's traffic is past the package's: its sites are off the edge until it is not.
        .addColumn('traffic_exceeded', 'integer', int)
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('user_packages_user').on('user_packages').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('user_packages_end').on('user_packages').columns(['end_at']).execute();
      await db.schema
        .createTable('user_package_upgrades')
        .addColumn('id', idType, id)
        .addColumn('user_package_id', 'bigint', (c) => c.notNull().references('user_packages.id').onDelete('cascade'))
        .addColumn('package_up_id', 'bigint', (c) => c.notNull().references('package_ups.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('adds', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('user_package_upgrades_unique', ['user_package_id', 'package_up_id'])
        .execute();
      await db.schema
        .createTable('orders')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint')
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_package_id', 'bigint', (c) => c.references('user_packages.id').onDelete('set null'))
        .addColumn('coupon_id', 'bigint', (c) => c.references('coupons.id').onDelete('set null'))
        .addColumn('out_trade_no', 'text', (c) => c.notNull().unique())
        // The payment provider's transaction id: unique, so a notification is credited once.
        .addColumn('provider_txn_id', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('paid_at', 'bigint')
        .execute();
      await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('orders_created').on('orders').columns(['created_at']).execute();
      await db.schema
        .createTable('coupon_history')
        .addColumn('id', idType, id)
        .addColumn('coupon_id', 'bigint', (c) => c.notNull().references('coupons.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('order_id', 'bigint', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('amount_off', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Sites and streams belong to a user package (null: made before packages, or by an admin).
      for (const table of ['sites', 'streams']) {
        await db.schema
          .alterTable(table)
          .addColumn('user_package_id', 'bigint', (c) => c.references('user_packages.id').onDelete('set null'))
          .execute();
      }
      await db.schema
        .createIndex('coupon_history_coupon')
        .on('coupon_history')
        .columns(['coupon_id', 'user_id'])
        .execute();
    },
  };
};
