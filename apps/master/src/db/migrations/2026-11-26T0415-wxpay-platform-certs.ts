import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. The WeChat Pay platform certificates downloaded from GET /v3/certificates,
// kept per merchant by serial number with their validity, so notifications and answers are verified
// with the one their Wechatpay-Serial names, and a rotation is picked up without an operator.
export const wxpayPlatformCerts = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('wxpay_platform_certs')
      .addColumn('mchid', 'text', (c) => c.notNull())
      .addColumn('serial', 'text', (c) => c.notNull())
      .addColumn('cert_pem', 'text', (c) => c.notNull())
      .addColumn('effective_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('fetched_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('wxpay_platform_certs_pk', ['mchid', 'serial'])
      .execute();
  },
});
