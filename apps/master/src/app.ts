import { mkdirSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { MasterConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';
import { type EventStore, openEventStore } from './db/events.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { App } from './http.ts';
import { configureAcmeHttp } from './modules/acme/acme-http.ts';
import { CERT_ISSUE, certIssueHandler } from './modules/acme/issue-cert.ts';
import { agentRoutes } from './modules/agent/agent.routes.ts';
import { agentInstallRoutes } from './modules/agent-install/agent-install.routes.ts';
import { announcementRoutes, publicAnnouncementRoutes } from './modules/announcements/announcements.routes.ts';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { audit } from './modules/audit/audit-hook.ts';
import { logRoutes } from './modules/audit/logs.routes.ts';
import { publicAuthRoutes, sessionRoutes } from './modules/auth/auth.routes.ts';
import { orderRoutes } from './modules/billing/orders.routes.ts';
import { certifyRoutes } from './modules/certify/certify.routes.ts';
import { certRoutes } from './modules/certs/certs.routes.ts';
import { joinCluster } from './modules/cluster/cluster.ts';
import { checkSecretKey } from './modules/cluster/secret-key-check.ts';
import { lockDataDir } from './modules/cluster/single-master.ts';
import { cnameRoutes } from './modules/cname/cname.routes.ts';
import { publicCommonRoutes, signedInCommonRoutes } from './modules/common/common.routes.ts';
import { configAsCodeRoutes } from './modules/config-as-code/config-as-code.routes.ts';
import { dnsApiRoutes } from './modules/dnsapis/dnsapis.routes.ts';
import { geoipAgentRoutes, geoipRoutes } from './modules/geoip/geoip.routes.ts';
import { ownedGroupRoutes } from './modules/groups/owned-groups.routes.ts';
import { startHealthChecker } from './modules/health/checker.ts';
import { healthAgentRoutes, healthRoutes } from './modules/health/health.routes.ts';
import { ingestRoutes } from './modules/ingest/ingest.routes.ts';
import { jobRoutes } from './modules/jobs/jobs.routes.ts';
import { lineGroupRoutes } from './modules/line-groups/line-groups.routes.ts';
import { publishLineGroups } from './modules/line-groups/publish.ts';
import { inboxRoutes } from './modules/messages/inbox.routes.ts';
import { createMessenger, type SmsProvider } from './modules/messages/messenger.ts';
import { createNotifier } from './modules/messages/notifier.ts';
import { passwordChangeNotices } from './modules/messages/security-notices.ts';
import type { WebhookOptions } from './modules/messages/webhook-delivery.ts';
import { metricsRoutes } from './modules/metrics/metrics.routes.ts';
import { monitorRoutes } from './modules/monitor/monitor.routes.ts';
import { nodeRoutes } from './modules/nodes/nodes.routes.ts';
import { originHealthRoutes } from './modules/origin-health/origin-health.routes.ts';
import { overviewRoutes } from './modules/overview/overview.routes.ts';
import { catalogueRoutes } from './modules/packages/catalogue.routes.ts';
import { userPackageRoutes } from './modules/packages/user-packages.routes.ts';
import { paymentRoutes } from './modules/payments/payments.routes.ts';
import { paymentNotifyRoutes } from './modules/payments/payments-notify.routes.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { protectionRoutes } from './modules/protection/protection.routes.ts';
import { rulePreviewRoutes } from './modules/rule-preview/rule-preview.routes.ts';
import { configRoutes } from './modules/settings/configs.routes.ts';
import { sealSettingsWith } from './modules/settings/sealed-settings.ts';
import { storageRoutes } from './modules/settings/storage.routes.ts';
import { siteRoutes } from './modules/sites/sites.routes.ts';
import { streamRoutes } from './modules/streams/streams.routes.ts';
import { sysOpRoutes } from './modules/sys-op/sys-op.routes.ts';
import { sysOpAgentRoutes } from './modules/sys-op/sys-op-agent.routes.ts';
import { settleScheduledRuns, startSchedules } from './modules/tasks/schedules.ts';
import { TaskRunner } from './modules/tasks/task-runner.ts';
import { taskRoutes } from './modules/tasks/tasks.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';
import { userConfigRoutes } from './modules/user-configs/user-configs.routes.ts';
import { userGroupRoutes } from './modules/user-groups/user-groups.routes.ts';
import { ensureFirstAdmin } from './modules/users/first-admin.ts';
import { currentUserRoutes } from './modules/users/users.routes.ts';
import { adminUserRoutes } from './modules/users/users-admin.routes.ts';
import { auth } from './plugins/auth.ts';
import { dashboard } from './plugins/dashboard.ts';
import { envelope } from './plugins/envelope.ts';
import { finiteNumbers } from './plugins/finite-numbers.ts';
import { openapi } from './plugins/openapi.ts';
import { requestIdOf } from './plugins/request-id.ts';
import { requestLogger } from './plugins/request-logger.ts';
import { addRouteHook, methodsOf } from './plugins/route-hooks.ts';
import { routePolicy } from './plugins/route-policy.ts';
import { schemaCompilers } from './plugins/schema-compilers.ts';
import { loadSecretKey, secretBox } from './secrets.ts';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** An already opened database (tests pass one per dialect); otherwise opened from the config. */
  database?: DatabaseHandle;
  /** An already opened logs store (tests keep it to check what was stored); otherwise opened from the config. */
  events?: EventStore;
  sms?: SmsProvider;
  /** Tests only: a CA to trust for webhook targets, and loopback targets allowed. */
  webhooks?: WebhookOptions;
  /** false: no background task runner nor renewal sweep (tests that drive them by hand). */
  background?: boolean;
}

/** Assembles the master in a fixed order: external plugins, app plugins, then routes. */
export async function buildApp(config: MasterConfig, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    requestIdHeader: false,
    childLoggerFactory: requestLogger,
    genReqId: requestIdOf,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        verbose: true,
        strictNumbers: true,
      },
    },
    schemaController: { compilersFactory: schemaCompilers },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // SQLite serves one master: a second one on the same data directory stops here.
  const dataDirLock = options.database || config.databaseUrl ? undefined : lockDataDir(ensureDir(config.dataDir));
  try {
    return await assemble(app, config, options, dataDirLock);
  } catch (error) {
    dataDirLock?.release();
    throw error;
  }
}

const ensureDir = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  return dir;
};

async function assemble(
  app: App,
  config: MasterConfig,
  options: BuildOptions,
  dataDirLock: { release(): void } | undefined,
): Promise<App> {
  const database = options.database ?? openDatabase({ dataDir: config.dataDir, url: config.databaseUrl });
  await migrateToLatest(database);
  const events = options.events ?? (await openEventStore(config.logsUrl, database.logs));
  await ensureFirstAdmin(database.db, { password: config.adminPassword, dataDir: config.dataDir, log: app.log });
  const messenger = createMessenger({
    db: database.db,
    log: app.log,
    smtpUrl: config.smtpUrl,
    smtpFrom: config.smtpFrom,
    sms: options.sms,
  });
  const secrets = secretBox(loadSecretKey(config.dataDir, config.secretKey));
  // Several masters on one database must share the key: a master with another one stops here.
  await checkSecretKey(database.db, secrets);
  // Secret settings (SMTP password, SMS secret) are sealed at rest with the same key.
  sealSettingsWith(database.db, secrets);
  const notifier = createNotifier({ db: database.db, log: app.log, messenger, secrets, webhooks: options.webhooks });
  const context: AppContext = {
    config,
    db: database.db,
    logs: database.logs,
    events,
    dialect: database.dialect,
    messenger,
    notifier,
    secrets,
  };
  // Before the routes: they subscribe to what the other masters relay.
  await joinCluster(app, database, app.log);
  configureAcmeHttp(config.acmeCaFile);
  const tasks = new TaskRunner({
    db: database.db,
    log: app.log,
    handlers: { [CERT_ISSUE]: certIssueHandler({ db: database.db, secrets }) },
  });
  let schedules: { stop(): Promise<void> } | undefined;
  let healthChecker: { stop(): Promise<void> } | undefined;
  if (options.background !== false) {
    app.addHook('onReady', async () => {
      tasks.start();
      // Certificate renewal, log and traffic retention, expiry notices, as /sys/task sets them.
      schedules = startSchedules({
        db: database.db,
        logs: database.logs,
        events,
        dialect: database.dialect,
        log: app.log,
        notifier,
        secrets,
      });
      notifier.start();
      // Node IP health checks and failover, as /node/monitor-setting sets them.
      healthChecker = startHealthChecker({
        db: database.db,
        log: app.log,
        notifier,
        // A switched IP leaves (or rejoins) the DNS answers of the line groups that list it.
        onSwitch: async (switches) => {
          const groupIds = [...new Set(switches.flatMap((change) => change.groupIds))];
          if (groupIds.length === 0) return;
          const published = await publishLineGroups(database.db, secrets, app.log, groupIds);
          // Thrown, the checker hands these switches over again next round.
          if (published.failed > 0) throw new Error(`${published.failed} line groups were not published`);
        },
      });
    });
  }
  app.addHook('onClose', async () => {
    await healthChecker?.stop();
    await schedules?.stop();
    // Runs an admin started with "run now" finish before the database closes.
    await settleScheduledRuns();
    await notifier.stop();
    await tasks.stop();
    messenger.close();
    if (!options.events) await events.close();
    if (!options.database) await database.close();
    dataDirLock?.release();
  });

  await app.register(auth, { db: database.db });
  // Before any route: every route declares who may call it, or the app does not start.
  await app.register(routePolicy);
  await app.register(openapi);
  await app.register(envelope);
  await app.register(finiteNumbers);
  await app.register(audit, { db: database.db });
  await metricsRoutes(app, context);
  // Only a PUT or POST changes a password: other routes skip the hook.
  addRouteHook(
    app,
    'onResponse',
    (route) => methodsOf(route).some((method) => method === 'PUT' || method === 'POST'),
    passwordChangeNotices(database.db, notifier),
  );

  await app.register(async (open: App) => {
    await publicAuthRoutes(open, context);
    await publicCommonRoutes(open, context);
    await agentInstallRoutes(open);
    await publicAnnouncementRoutes(open, context);
    await paymentNotifyRoutes(open, context);
  });
  await app.register(async (signedIn: App) => {
    await sessionRoutes(signedIn, context);
    await currentUserRoutes(signedIn, context);
    await adminUserRoutes(signedIn, context);
    await userGroupRoutes(signedIn, context);
    await signedInCommonRoutes(signedIn, context);
    await siteRoutes(signedIn, context);
    await originHealthRoutes(signedIn, context);
    await ownedGroupRoutes(signedIn, context, {
      path: '/v1/site-groups',
      table: 'site_groups',
      members: 'sites',
      label: 'site group',
    });
    await streamRoutes(signedIn, context);
    await ownedGroupRoutes(signedIn, context, {
      path: '/v1/stream-groups',
      table: 'stream_groups',
      members: 'streams',
      label: 'stream group',
    });
    await certRoutes(signedIn, context);
    await userConfigRoutes(signedIn, context);
    await configAsCodeRoutes(signedIn, context);
    await cnameRoutes(signedIn, context);
    await dnsApiRoutes(signedIn, context);
    await jobRoutes(signedIn, context);
    await nodeRoutes(signedIn, context);
    await lineGroupRoutes(signedIn, context);
    await taskRoutes(signedIn, context);
    await protectionRoutes(signedIn, context);
    await monitorRoutes(signedIn, context);
    await rulePreviewRoutes(signedIn, context);
    await healthRoutes(signedIn, context);
    await usageRoutes(signedIn, context);
    await overviewRoutes(signedIn, context);
    await catalogueRoutes(signedIn, context);
    await userPackageRoutes(signedIn, context);
    await orderRoutes(signedIn, context);
    await paymentRoutes(signedIn, context);
    await configRoutes(signedIn, context);
    await storageRoutes(signedIn, context);
    await apiKeyRoutes(signedIn, context);
    await logRoutes(signedIn, context);
    await profileRoutes(signedIn, context);
    await twoFactorRoutes(signedIn, context);
    await certifyRoutes(signedIn, context);
    await inboxRoutes(signedIn, context);
    await announcementRoutes(signedIn, context);
    await sysOpRoutes(signedIn, context);
    await geoipRoutes(signedIn, context);
  });
  await app.register(async (agents: App) => {
    await agentRoutes(agents, context);
    await ingestRoutes(agents, context);
    await healthAgentRoutes(agents, context);
    await sysOpAgentRoutes(agents, context);
    await geoipAgentRoutes(agents, context);
  });
  await app.register(dashboard, { root: config.dashboardDir });
  return app;
}
