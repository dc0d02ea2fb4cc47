import { randomBytes } from 'node:crypto';
import {
  AddNodeBody,
  Envelope,
  IdParams,
  ListQuery,
  ListResult,
  NODE_DEFAULTS,
  NodePlace,
  NodeView,
  ObjectName,
  PERMISSIONS,
  PendingNode,
  UpdateNodeBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { hashToken } from '../auth/tokens.ts';
import { changeConfig } from '../config/config-version.ts';
import { holdUntilProbed } from '../health/health.repository.ts';
import { NODE_MONITOR } from '../health/monitor-settings.ts';
import { publishGroups, publishLineGroups } from '../line-groups/publish.ts';
import { readConfig } from '../settings/configs.ts';
import { installToken, rotateInstallToken } from './install-token.ts';
import { findNode, listNodes, nodeErrors, presentNode } from './nodes.repository.ts';

const tags = ['nodes'];

/** A node's group and region must exist: a reference to nothing is a 404 naming the field. */
async function checkPlacement(
  db: AppContext['db'],
  fields: { group_id?: number | null | undefined; region_id?: number | null | undefined },
) {
  for (const [field, table, label] of [
    ['group_id', 'node_groups', 'node group'],
    ['region_id', 'regions', 'region'],
  ] as const) {
    const id = fields[field];
    if (id === undefined || id === null) continue;
    if (!(await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst())) {
      throw new AppError('not_found', `${field}: ${label} ${id} does not exist`);
    }
  }
}

/** Admin calls for edge nodes: list, accept pending agents, edit, disable, delete; the install token. */
export async function nodeRoutes(app: App, { db, secrets }: AppContext) {
  app.get(
    '/v1/nodes',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(ListResult(NodeView)) } },
    },
    async (request) => {
      return ok(await listNodes(db, request.query.page ?? 1, request.query.limit ?? 20));
    },
  );

  app.get(
    '/v1/nodes/install-token',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags } },
    async () => {
      return ok({ install_token: await installToken(db) });
    },
  );

  app.post(
    '/v1/nodes/install-token',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags } },
    async () => {
      return ok({ install_token: await rotateInstallToken(db) });
    },
  );

  app.get(
    '/v1/pending-nodes',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, response: { 200: Envelope(ListResult(PendingNode)) } },
    },
    async () => {
      const rows = await db
        .selectFrom('pending_nodes')
        .select(['id', 'hostname', 'ips', 'agent_version', 'client_ip', 'created_at'])
        .where('state', '=', 'pending')
        .orderBy('id')
        .execute();
      const list = rows.map((row) => ({
        ...row,
        ips: JSON.parse(row.ips) as string[],
        created_at: new Date(row.created_at).toISOString(),
      }));
      return ok({ list, total: list.length });
    },
  );

  app.delete(
    '/v1/pending-nodes/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      const row = await db
        .updateTable('pending_nodes')
        .set({ state: 'rejected' })
        .where('id', '=', request.params.id)
        .where('state', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!row) throw new AppError('not_found', `pending node ${request.params.id} does not exist`);
      return ok(null);
    },
  );

  app.post(
    '/v1/nodes',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, body: AddNodeBody, response: { 200: Envelope(NodeView) } },
    },
    async (request) => {
      const { pending_id, ...fields } = request.body;
      const pending = await db.selectFrom('pending_nodes').selectAll().where('id', '=', pending_id).executeTakeFirst();
      if (pending?.state !== 'pending')
        throw new AppError('not_found', `pending_id: pending node ${pending_id} does not exist`);
      await checkPlacement(db, fields);
      const credential = randomBytes(32).toString('base64url');
      const now = Date.now();
      const node = await changeConfig(db, async (trx) => {
        const row = await trx
          .insertInto('nodes')
          .values({
            name: fields.name ?? pending.hostname,
            ips: JSON.stringify(fields.ips ?? (JSON.parse(pending.ips) as string[])),
            group_id: fields.group_id ?? null,
            region_id: fields.region_id ?? null,
            enabled: fields.enabled === false ? 0 : 1,
            http_port: fields.http_port ?? NODE_DEFAULTS.http_port,
            https_port: fields.https_port ?? NODE_DEFAULTS.https_port,
            max_cache_size_mb: fields.max_cache_size_mb ?? NODE_DEFAULTS.max_cache_size_mb,
            credential_hash: hashToken(credential),
            agent_version: pending.agent_version,
            applied_version: 0,
            last_error: '',
            dropped_log_lines: 0,
            last_seen_at: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        // The agent collects the credential on its next poll; it is then wiped from this table.
        await trx
          .updateTable('pending_nodes')
          .set({ state: 'accepted', node_id: row.id, credential })
          .where('id', '=', pending.id)
          .execute();
        return row;
      });
      return ok(presentNode(node, []));
    },
  );

  app.get(
    '/v1/nodes/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, response: { 200: Envelope(NodeView) } },
    },
    async (request) => {
      const row = await findNode(db, request.params.id);
      if (!row) throw new AppError('not_found', `node ${request.params.id} does not exist`);
      return ok(presentNode(row, await nodeErrors(db, row.id)));
    },
  );

  app.put(
    '/v1/nodes/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, body: UpdateNodeBody, response: { 200: Envelope(NodeView) } },
    },
    async (request) => {
      const { ips, enabled, maintenance, ...rest } = request.body;
      await checkPlacement(db, rest);
      const before = await findNode(db, request.params.id);
      if (!before) throw new AppError('not_found', `node ${request.params.id} does not exist`);
      if (maintenance === true && before.maintenance === 0) {
        // Drained first: the node is marked only once no line group's records name its IPs.
        const drained = await publishGroups(db, secrets, app.log, { drainNodeIds: [before.id] });
        const failed = drained.groups.filter((group) => group.error);
        if (failed.length > 0) {
          const reasons = failed.map((group) => `line group ${group.id}: ${group.error}`).join('; ');
          throw new AppError('conflict', `maintenance: the node could not be drained from DNS (${reasons})`);
        }
      }
      const row = await changeConfig(db, (trx) =>
        trx
          .updateTable('nodes')
          .set({
            ...rest,
            ...(ips !== undefined && { ips: JSON.stringify(ips) }),
            ...(enabled !== undefined && { enabled: enabled ? 1 : 0 }),
            ...(maintenance !== undefined && { maintenance: maintenance ? 1 : 0 }),
            updated_at: Date.now(),
          })
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirst(),
      );
      if (!row) throw new AppError('not_found', `node ${request.params.id} does not exist`);
      if (enabled === true && before.enabled === 0 && (await readConfig(db, NODE_MONITOR)).value.enabled) {
        // A node that comes back is not trusted before it is probed: its IPs return on good probes.
        await holdUntilProbed(db, row.id, JSON.parse(row.ips) as string[], Date.now());
      }
      if (ips !== undefined || enabled !== undefined || maintenance !== undefined) {
        await publishLineGroups(db, secrets, app.log);
      }
      return ok(presentNode(row, await nodeErrors(db, row.id)));
    },
  );

  app.delete(
    '/v1/nodes/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      const row = await db.deleteFrom('nodes').where('id', '=', request.params.id).returning('id').executeTakeFirst();
      if (!row) throw new AppError('not_found', `node ${request.params.id} does not exist`);
      await publishLineGroups(db, secrets, app.log);
      return ok(null);
    },
  );

  // Line groups (/v1/node-groups) live in modules/line-groups.
  for (const [path, table] of [['/v1/regions', 'regions']] as const) {
    app.get(
      path,
      {
        config: { policy: policy.admin(PERMISSIONS.adminNode) },
        schema: { tags, response: { 200: Envelope(ListResult(NodePlace)) } },
      },
      async () => {
        const rows = await db.selectFrom(table).select(['id', 'name']).orderBy('id').execute();
        return ok({ list: rows, total: rows.length });
      },
    );
    app.post(
      path,
      {
        config: { policy: policy.admin(PERMISSIONS.adminNode) },
        schema: { tags, body: Type.Object({ name: ObjectName }, { additionalProperties: false }) },
      },
      async (request) => {
        const row = await db
          .insertInto(table)
          .values({ name: request.body.name, created_at: Date.now() })
          .returning(['id', 'name'])
          .executeTakeFirstOrThrow();
        return ok(row);
      },
    );
    app.get(
      `${path}/:id`,
      { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
      async (request) => {
        const row = await db
          .selectFrom(table)
          .select(['id', 'name'])
          .where('id', '=', request.params.id)
          .executeTakeFirst();
        if (!row) throw new AppError('not_found', `${table.replace('_', ' ')} ${request.params.id} does not exist`);
        return ok(row);
      },
    );
    app.put(
      `${path}/:id`,
      {
        config: { policy: policy.admin(PERMISSIONS.adminNode) },
        schema: { tags, params: IdParams, body: Type.Object({ name: ObjectName }, { additionalProperties: false }) },
      },
      async (request) => {
        const row = await db
          .updateTable(table)
          .set({ name: request.body.name })
          .where('id', '=', request.params.id)
          .returning(['id', 'name'])
          .executeTakeFirst();
        if (!row) throw new AppError('not_found', `${table.replace('_', ' ')} ${request.params.id} does not exist`);
        return ok(row);
      },
    );
    app.delete(
      `${path}/:id`,
      { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
      async (request) => {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('nodes').set({ region_id: null }).where('region_id', '=', request.params.id).execute();
          await trx.deleteFrom(table).where('id', '=', request.params.id).execute();
        });
        return ok(null);
      },
    );
  }
}
