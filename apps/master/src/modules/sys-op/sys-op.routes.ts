import {
  AgentCheck,
  AgentCheckBody,
  AgentRelease,
  AgentUpgradeList,
  AgentUpgradeLog,
  Envelope,
  IdParams,
  ListQuery,
  MAX_BUNDLE_BYTES,
  MasterUpgradeList,
  MasterUpgradeQuery,
  PERMISSIONS,
  ReleaseVersion,
  StartAgentUpgradeBody,
  StartTransferBody,
  SysOpLogAnswer,
  SysOpLogQuery,
  UploadReleaseQuery,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import agentPackage from '../../../../agent/package.json' with { type: 'json' };
import masterPackage from '../../../package.json' with { type: 'json' };
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { blobContent, findBlob } from '../blobs/blob-store.ts';
import { agentCheck, startAgentCheck, waitForCheck } from './agent-check.service.ts';
import {
  cancelUpgrade,
  listReleases,
  listUpgrades,
  registerBuiltInRelease,
  startUpgrade,
  upgradeLog,
  uploadRelease,
} from './agent-upgrades.service.ts';
import {
  applyMasterUpgrade,
  type MasterUpgradeContext,
  masterPaths,
  receiveMasterUpgrade,
} from './master-upgrade.service.ts';
import { startSysOpRounds } from './sys-op-rounds.ts';
import { stopSysOp, sysOpState } from './sys-op-state.ts';
import { findOp, listOps, newestOp, presentOp } from './sys-ops.repository.ts';
import { runTransfer, startTransfer, stopTransfer } from './transfer.service.ts';

const tags = ['sys-op'];

/** The request's own stream when it carries a bundle; anything else is refused by receiveBundle. */
const bundleStream = (request: FastifyRequest) =>
  String(request.headers['content-type'] ?? '').startsWith(OCTET_STREAM) ? request.raw : undefined;
const OCTET_STREAM = 'application/octet-stream';
/** How often running rollouts are looked at (nodes that never answer time out) and other masters' releases installed. */
const ROUND_EVERY_MS = 5000;
/** A blob id as the blob store makes them (a UUID). */
const BackupParams = Type.Object(
  { id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }) },
  { additionalProperties: false },
);
const DATABASE_COPIES = ['database-backup', 'database-export'];

/**
 * /sys/op (admin:sys, declared on each route): agent releases and rolling upgrades, the agents'
 * self-test, the master's own upgrade and its transfer to a new host.
 */
export async function sysOpRoutes(app: App, { db, dialect, config }: AppContext) {
  const { bus, work } = sysOpState(db);
  const masterContext: MasterUpgradeContext = {
    db,
    dialect,
    databaseUrl: config.databaseUrl,
    paths: masterPaths(config.dataDir),
    runningVersion: masterPackage.version,
  };
  const rounds = startSysOpRounds({ db, bus, master: masterContext, work, log: app.log, everyMs: ROUND_EVERY_MS });
  app.addHook('onClose', async () => {
    await rounds.stop();
    await stopSysOp(db);
  });
  const logFailure = (what: string) => (error: unknown) => app.log.error({ err: error }, `${what} failed`);

  // Bundles arrive as they are: the parser leaves the request stream unread (so no hook walks it),
  // and the handler streams it into the blob store, hashing it and counting its bytes.
  await app.register(async (uploads: App) => {
    uploads.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => done(null, undefined));
    uploads.post(
      '/v1/agent/upgrades/releases',
      {
        config: { policy: policy.admin(PERMISSIONS.adminSys) },
        schema: {
          tags,
          description: `Uploads an agent release bundle (tar.gz as ${OCTET_STREAM}, at most ${MAX_BUNDLE_BYTES} bytes), checked against its sha256.`,
          querystring: UploadReleaseQuery,
          consumes: [OCTET_STREAM],
          response: { 200: Envelope(AgentRelease) },
        },
      },
      async (request) =>
        ok(await uploadRelease(db, bundleStream(request), request.query.version, request.query.sha256)),
    );
    uploads.post(
      '/v1/master/upgrades',
      {
        config: { policy: policy.admin(PERMISSIONS.adminSys) },
        schema: {
          tags,
          description: `Upgrades the master from a release bundle (tar.gz as ${OCTET_STREAM}) after a backup of the database; follow it at /v1/master/upgrades/log.`,
          querystring: MasterUpgradeQuery,
          consumes: [OCTET_STREAM],
        },
      },
      async (request) => {
        const id = await receiveMasterUpgrade(
          masterContext,
          bundleStream(request),
          request.query.version,
          request.query.sha256,
        );
        work.run((signal) => applyMasterUpgrade(masterContext, id, signal), logFailure('master upgrade'));
        return ok({ id });
      },
    );
  });

  app.post(
    '/v1/agent/upgrades/releases/built-in',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        description:
          'Registers the agent bundle this master ships (what install.sh installs) as a release; version defaults to its package version.',
        body: Type.Object({ version: Type.Optional(ReleaseVersion) }, { additionalProperties: false }),
        response: { 200: Envelope(AgentRelease) },
      },
    },
    async (request) => ok(await registerBuiltInRelease(db, request.body.version ?? agentPackage.version)),
  );

  app.get(
    '/v1/agent/upgrades',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(AgentUpgradeList) } },
    },
    async (request) => {
      const upgrades = await listUpgrades(db, request.query.page ?? 1, request.query.limit ?? 20);
      return ok({ ...upgrades, releases: await listReleases(db) });
    },
  );

  app.post(
    '/v1/agent/upgrades',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        description:
          'Rolls a release out: one node first, then wave_percent of the nodes per wave; each agent verifies the bundle and rolls back by itself when the new version fails its health check.',
        body: StartAgentUpgradeBody,
        response: { 200: Envelope(AgentUpgradeLog) },
      },
    },
    async (request) => ok(await startUpgrade(db, bus, request.body)),
  );

  app.get(
    '/v1/agent/upgrades/log/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(AgentUpgradeLog) } },
    },
    async (request) => ok(await upgradeLog(db, request.params.id)),
  );

  app.post(
    '/v1/agent/upgrades/:id/cancel',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        params: IdParams,
        description: 'Stops a running rollout; nodes not sent yet keep their version.',
      },
    },
    async (request) => {
      await cancelUpgrade(db, request.params.id);
      return ok(await upgradeLog(db, request.params.id));
    },
  );

  app.post(
    '/v1/maintain/agent-check',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        description:
          'Asks every enabled agent for a self-test (nginx config and process, disk, clock skew, config version) and waits up to `wait` seconds for the answers.',
        body: AgentCheckBody,
        response: { 200: Envelope(AgentCheck) },
      },
    },
    async (request) => {
      const id = await startAgentCheck(db, bus);
      return ok(await waitForCheck(db, id, request.body.wait, work.signal));
    },
  );

  app.get(
    '/v1/maintain/agent-check/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(AgentCheck) } },
    },
    async (request) => ok(await agentCheck(db, request.params.id)),
  );

  app.get(
    '/v1/master/upgrades',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(MasterUpgradeList) } },
    },
    async (request) => {
      const ops = await listOps(db, 'master-upgrade', request.query.page ?? 1, request.query.limit ?? 20);
      return ok({ current_version: masterPackage.version, dialect, ...ops });
    },
  );

  app.get(
    '/v1/master/backups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        params: BackupParams,
        description:
          'A copy of the PostgreSQL database kept in the database (pg_dump custom format): the backup a master upgrade took, or a transfer export; their logs name it.',
      },
    },
    async (request, reply) => {
      const blob = await findBlob(db, request.params.id);
      if (!blob || !DATABASE_COPIES.includes(blob.kind)) {
        throw new AppError('not_found', `id: there is no database backup ${request.params.id}`);
      }
      return reply
        .type('application/octet-stream')
        .header('content-length', String(blob.size))
        .header('content-disposition', `attachment; filename="${blob.name}"`)
        .send(blobContent(db, blob));
    },
  );

  const logOf = (kind: 'master-upgrade' | 'transfer') => async (request: { query: SysOpLogQuery }) => {
    const row = request.query.id === undefined ? await newestOp(db, kind) : await findOp(db, request.query.id);
    return ok({ op: row && row.kind === kind ? presentOp(row) : null });
  };
  app.get(
    '/v1/master/upgrades/log',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, querystring: SysOpLogQuery, response: { 200: Envelope(SysOpLogAnswer) } },
    },
    logOf('master-upgrade'),
  );
  app.get(
    '/v1/master/transfer-log',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, querystring: SysOpLogQuery, response: { 200: Envelope(SysOpLogAnswer) } },
    },
    logOf('transfer'),
  );

  app.post(
    '/v1/master/start-transfer',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        description:
          'Moves the master to a new host: exports the database, waits for the new master to answer, then tells every agent its address.',
        body: StartTransferBody,
      },
    },
    async (request) => {
      const id = await startTransfer(db, request.body);
      const body = request.body;
      work.run(
        (signal) => runTransfer(masterContext, bus, id, body, { pollMs: 5000, agentsWaitMs: 10 * 60_000 }, signal),
        logFailure('transfer'),
      );
      return ok({ id });
    },
  );

  app.post(
    '/v1/master/stop-transfer',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, description: 'Stops the running transfer; agents not told yet stay with this master.' },
    },
    async () => ok({ id: await stopTransfer(db) }),
  );
}
