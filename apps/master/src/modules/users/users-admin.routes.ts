import {
  AdminUser,
  CreateUserBody,
  Envelope,
  IdParams,
  Impersonation,
  ListResult,
  PERMISSIONS,
  SavedUser,
  UpdateUserBody,
  UserBatchBody,
  UserBatchResult,
  UserListQuery,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller, clientInfo } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { listUsers, presentAdminUser } from './users-admin.repository.ts';
import { batchUsers, changeUser, createUser, impersonate, readAdminUser, removeUser } from './users-admin.service.ts';

const tags = ['users'];

/**
 * The admin's users (spec §7: GET, POST and batch PUT /v1/users; GET, PUT, DELETE /v1/users/{id}), for
 * admins holding admin:user or admin:sys; which accounts each may change is manage-rules.ts's to say.
 */
export async function adminUserRoutes(app: App, { db, dialect }: AppContext) {
  app.get(
    '/v1/users',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, querystring: UserListQuery, response: { 200: Envelope(ListResult(AdminUser)) } },
    },
    async (request) => ok(await listUsers(db, request.query, dialect)),
  );

  app.post(
    '/v1/users',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, body: CreateUserBody, response: { 200: Envelope(SavedUser) } },
    },
    async (request) => ok(await createUser(db, caller(request).user, request.body)),
  );

  app.put(
    '/v1/users',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, body: UserBatchBody, response: { 200: Envelope(UserBatchResult) } },
    },
    async (request) => ok(await batchUsers(db, caller(request).user, request.body)),
  );

  app.get(
    '/v1/users/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(AdminUser) } },
    },
    async (request) => ok(presentAdminUser(await readAdminUser(db, request.params.id))),
  );

  app.put(
    '/v1/users/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, body: UpdateUserBody, response: { 200: Envelope(SavedUser) } },
    },
    async (request) => ok(await changeUser(db, caller(request).user, request.params.id, request.body)),
  );

  app.delete(
    '/v1/users/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeUser(db, caller(request).user, request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/v1/users/:id/impersonate',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Impersonation) } },
    },
    async (request) => ok(await impersonate(db, caller(request).user, request.params.id, clientInfo(request))),
  );
}
