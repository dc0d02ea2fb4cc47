import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { DatabaseHandle, Dialect as DialectName } from './database.ts';
import { accounts } from './migrations/2026-11-21T0900-accounts.ts';
import { edge } from './migrations/2026-11-21T1000-edge.ts';
import { cname } from './migrations/2026-11-21T1100-cname.ts';
import { dnsapis } from './migrations/2026-11-21T1130-dnsapis.ts';
import { siteList } from './migrations/2026-11-21T1200-site-list.ts';
import { acme } from './migrations/2026-11-22T0900-acme.ts';
import { siteSearch } from './migrations/2026-11-22T1000-site-search.ts';
import { protection } from './migrations/2026-11-22T1100-protection.ts';
import { accountLogs } from './migrations/2026-11-23T1300-account-logs.ts';
import { ownerKeys } from './migrations/2026-11-25T0900-owner-keys.ts';
import { siteDomainSuffix } from './migrations/2026-11-25T0910-site-domain-suffix.ts';
import { usersAdmin } from './migrations/2026-11-25T1130-users-admin.ts';
import { userSearchTerms } from './migrations/2026-11-25T1131-user-search-terms.ts';
import { twoFactor } from './migrations/2026-11-25T1140-two-factor.ts';
import { certify } from './migrations/2026-11-25T1141-certify.ts';
import { messages } from './migrations/2026-11-25T1300-messages.ts';
import { systemTasks } from './migrations/2026-11-25T1310-system-tasks.ts';
import { userListIndexes } from './migrations/2026-11-25T1320-user-list-indexes.ts';
import { nodeIpStates } from './migrations/2026-11-25T1500-node-ip-states.ts';
import { expiryNotices } from './migrations/2026-11-25T1505-expiry-notices.ts';
import { lineGroups } from './migrations/2026-11-25T1510-line-groups.ts';
import { healthChecks } from './migrations/2026-11-25T1520-health-checks.ts';
import { packages } from './migrations/2026-11-25T1930-packages.ts';
import { userFlagIndex } from './migrations/2026-11-26T0130-user-flag-index.ts';
import { ordersPaid } from './migrations/2026-11-26T0140-orders-paid.ts';
import { messageSendsCreated } from './migrations/2026-11-26T0205-message-sends-created.ts';
import { orderRefunds } from './migrations/2026-11-26T0210-order-refunds.ts';
import { sysOp } from './migrations/2026-11-26T0400-sys-op.ts';
import { wxpayPlatformCerts } from './migrations/2026-11-26T0415-wxpay-platform-certs.ts';
import { packageExempt } from './migrations/2026-11-27T0900-package-exempt.ts';
import { nodeClock } from './migrations/2026-11-28T0400-node-clock.ts';
import { siteCounts } from './migrations/2026-11-28T0900-site-counts.ts';
import { geoip } from './migrations/2026-11-28T1230-geoip.ts';
import { originHealth } from './migrations/2026-11-28T1300-origin-health.ts';
import { packageFeatures } from './migrations/2026-11-28T1400-package-features.ts';
import { blobs } from './migrations/2026-11-28T1500-blobs.ts';
import { backgroundLeases } from './migrations/2026-11-28T1510-background-leases.ts';
import { domainProofs } from './migrations/2026-11-28T1900-domain-proofs.ts';
import { oneRunningUpgrade } from './migrations/2026-11-28T2100-one-running-upgrade.ts';
import { logs } from './migrations/logs/2026-11-21T1000-logs.ts';
import { blockLog } from './migrations/logs/2026-11-22T1100-block-log.ts';
import { siteTraffic } from './migrations/logs/2026-11-25T1000-site-traffic.ts';
import { streamTraffic } from './migrations/logs/2026-11-25T1110-stream-traffic.ts';
import { usage5min } from './migrations/logs/2026-11-25T1120-usage-5min.ts';
import { logIds } from './migrations/logs/2026-11-26T0500-log-ids.ts';
import { siteTotals } from './migrations/logs/2026-11-26T0510-site-totals.ts';
import { accessCountry } from './migrations/logs/2026-11-28T1230-access-country.ts';

/** Every migration, by its timestamped name. Landed migrations are frozen: add new ones, never edit. */
const migrations = (dialect: DialectName): Record<string, Migration> => ({
  '2026-11-21T0900-accounts': accounts(dialect),
  '2026-11-21T1000-edge': edge(dialect),
  '2026-11-21T1100-cname': cname(dialect),
  '2026-11-21T1130-dnsapis': dnsapis(dialect),
  '2026-11-21T1200-site-list': siteList(),
  '2026-11-22T0900-acme': acme(dialect),
  '2026-11-22T1000-site-search': siteSearch(dialect),
  '2026-11-22T1100-protection': protection(dialect),
  '2026-11-23T1300-account-logs': accountLogs(dialect),
  '2026-11-25T0900-owner-keys': ownerKeys(dialect),
  '2026-11-25T0910-site-domain-suffix': siteDomainSuffix(dialect),
  '2026-11-25T1130-users-admin': usersAdmin(dialect),
  '2026-11-25T1131-user-search-terms': userSearchTerms(dialect),
  '2026-11-25T1140-two-factor': twoFactor(dialect),
  '2026-11-25T1141-certify': certify(dialect),
  '2026-11-25T1300-messages': messages(dialect),
  '2026-11-25T1310-system-tasks': systemTasks(dialect),
  '2026-11-25T1320-user-list-indexes': userListIndexes(),
  '2026-11-25T1500-node-ip-states': nodeIpStates(dialect),
  '2026-11-25T1505-expiry-notices': expiryNotices(dialect),
  '2026-11-25T1510-line-groups': lineGroups(dialect),
  '2026-11-25T1520-health-checks': healthChecks(dialect),
  '2026-11-25T1930-packages': packages(dialect),
  '2026-11-26T0130-user-flag-index': userFlagIndex(dialect),
  '2026-11-26T0140-orders-paid': ordersPaid(),
  '2026-11-26T0205-message-sends-created': messageSendsCreated(),
  '2026-11-26T0210-order-refunds': orderRefunds(),
  '2026-11-26T0400-sys-op': sysOp(dialect),
  '2026-11-26T0415-wxpay-platform-certs': wxpayPlatformCerts(),
  '2026-11-27T0900-package-exempt': packageExempt(),
  '2026-11-28T0400-node-clock': nodeClock(),
  '2026-11-28T0900-site-counts': siteCounts(dialect),
  '2026-11-28T1230-geoip': geoip(dialect),
  '2026-11-28T1300-origin-health': originHealth(),
  '2026-11-28T1400-package-features': packageFeatures(),
  '2026-11-28T1500-blobs': blobs(dialect),
  '2026-11-28T1510-background-leases': backgroundLeases(),
  '2026-11-28T1900-domain-proofs': domainProofs(),
  '2026-11-28T2100-one-running-upgrade': oneRunningUpgrade(),
});

const logMigrations = (dialect: DialectName): Record<string, Migration> => ({
  '2026-11-21T1000-logs': logs(dialect),
  '2026-11-22T1100-block-log': blockLog(),
  '2026-11-25T1000-site-traffic': siteTraffic(),
  '2026-11-25T1110-stream-traffic': streamTraffic(),
  '2026-11-25T1120-usage-5min': usage5min(),
  '2026-11-26T0500-log-ids': logIds(),
  '2026-11-26T0510-site-totals': siteTotals(),
  '2026-11-28T1230-access-country': accessCountry(),
});

/**
 * Whether every migration in the list is already recorded: one query, where the migrator would
 * introspect the whole catalogue to find its tables (a quarter of a second on PostgreSQL) before
 * finding nothing to do. Any doubt (no table yet, a query error) answers no and the migrator runs.
 */
async function recorded(db: Kysely<unknown>, list: Record<string, Migration>, table: string): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db);
    const done = new Set(rows.map((row) => row.name));
    return Object.keys(list).every((name) => done.has(name));
  } catch {
    return false;
  }
}

async function run(db: Kysely<unknown>, dialect: DialectName, list: Record<string, Migration>, table: string) {
  if (await recorded(db, list, table)) return [];
  // On PostgreSQL the migrator's tables go in the current schema, the only one our introspector
  // reads (postgres-dialect.ts): each master (each test) keeps its own in its own schema.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
    ...(schema && { migrationTableSchema: schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the config store up to `last` (inclusive) only: tests of a migration start from older data. */
export const migrateConfigTo = (handle: DatabaseHandle, last: string) =>
  run(
    handle.db as Kysely<unknown>,
    handle.dialect,
    Object.fromEntries(Object.entries(migrations(handle.dialect)).filter(([name]) => name <= last)),
    'kysely_migration',
  );

/** Brings both stores to the latest schema; each keeps its own migration table. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  return [
    ...(await run(handle.db as Kysely<unknown>, handle.dialect, migrations(handle.dialect), 'kysely_migration')),
    ...(await run(
      handle.logs as Kysely<unknown>,
      handle.dialect,
      logMigrations(handle.dialect),
      'kysely_migration_logs',
    )),
  ];
}
