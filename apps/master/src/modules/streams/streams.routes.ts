import {
  ApplyStatus,
  Envelope,
  Id,
  IdParams,
  ListQuery,
  ListResult,
  ObjectName,
  PERMISSIONS,
  Stream,
  StreamSettings,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { applyStatus } from '../nodes/apply-status.ts';
import { creatorOf, ownerOf } from '../tenancy.ts';
import { findStreams, listStreams, presentStream } from './streams.repository.ts';
import { batchStreams, createStream, DEFAULT_STREAM_SETTINGS, editStream } from './streams.service.ts';

const tags = ['streams'];
const fields = StreamSettings.properties;
const StreamListQuery = Type.Object({
  ...ListQuery.properties,
  port: Type.Optional(fields.listen_port),
  protocol: Type.Optional(fields.protocol),
  group_id: Type.Optional(Id),
  enabled: Type.Optional(Type.Boolean()),
});
const CreateBody = Type.Object(
  {
    listen_port: fields.listen_port,
    protocol: fields.protocol,
    origins: fields.origins,
    balance: Type.Optional(fields.balance),
    proxy_protocol: Type.Optional(fields.proxy_protocol),
    enabled: Type.Optional(fields.enabled),
    name: Type.Optional(ObjectName),
    group_id: Type.Optional(Type.Union([Id, Type.Null()])),
    user_id: Type.Optional(Id),
    /** The owner's user package it counts against (default: their only active one). */
    user_package_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
const UpdateBody = Type.Object(
  {
    ...Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])),
    name: Type.Optional(ObjectName),
    group_id: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  { additionalProperties: false },
);
const BatchBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
    action: Type.Union([Type.Literal('enable'), Type.Literal('disable'), Type.Literal('delete'), Type.Literal('move')]),
    group_id: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  { additionalProperties: false },
);

export async function streamRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/streams',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: StreamListQuery, response: { 200: Envelope(ListResult(Stream)) } },
    },
    async (request) => {
      const { page = 1, limit = 20, port, protocol, group_id, enabled } = request.query;
      return ok(await listStreams(db, ownerOf(request), { port, protocol, groupId: group_id, enabled }, page, limit));
    },
  );

  app.post(
    '/v1/streams',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateBody, response: { 200: Envelope(Stream) } },
    },
    async (request) => {
      const { user_id, name, group_id, user_package_id, ...settings } = request.body;
      const complete = { ...DEFAULT_STREAM_SETTINGS, ...settings };
      const record = {
        userId: await creatorOf(db, ownerOf(request), user_id),
        groupId: group_id ?? null,
        name: name ?? `${complete.protocol}/${complete.listen_port}`,
        settings: complete,
      };
      return ok(presentStream(await createStream(db, record, user_package_id)));
    },
  );

  app.put(
    '/v1/streams',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: BatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await batchStreams(db, ownerOf(request), request.body.ids, request.body.action, request.body.group_id);
      return ok(null);
    },
  );

  app.get(
    '/v1/streams/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Stream) } },
    },
    async (request) => {
      const [row] = await findStreams(db, ownerOf(request), [request.params.id]);
      if (!row) throw new AppError('not_found', `stream ${request.params.id} does not exist`);
      return ok(presentStream(row));
    },
  );

  app.put(
    '/v1/streams/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateBody, response: { 200: Envelope(Stream) } },
    },
    async (request) => ok(presentStream(await editStream(db, ownerOf(request), request.params.id, request.body))),
  );

  app.get(
    '/v1/streams/:id/apply-status',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(ApplyStatus) } },
    },
    async (request) => {
      const [row] = await findStreams(db, ownerOf(request), [request.params.id]);
      if (!row) throw new AppError('not_found', `stream ${request.params.id} does not exist`);
      return ok(await applyStatus(db, 'stream', row.id, row.version));
    },
  );

  app.delete(
    '/v1/streams/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await batchStreams(db, ownerOf(request), [request.params.id], 'delete', undefined);
      return ok(null);
    },
  );
}
