import {
  CreateUserGroupBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  UpdateUserGroupBody,
  UserGroup,
  UserGroupListQuery,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { listUserGroups } from './user-groups.repository.ts';
import { changeUserGroup, createUserGroup, readUserGroup, removeUserGroup } from './user-groups.service.ts';

const tags = ['user-groups'];

/** User groups (spec §7: CRUD on /v1/user-groups and /{id}), for admins holding admin:user or admin:sys. */
export async function userGroupRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/user-groups',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, querystring: UserGroupListQuery, response: { 200: Envelope(ListResult(UserGroup)) } },
    },
    async (request) =>
      ok(await listUserGroups(db, request.query.page ?? 1, request.query.limit ?? 20, request.query.search)),
  );

  app.post(
    '/v1/user-groups',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, body: CreateUserGroupBody, response: { 200: Envelope(UserGroup) } },
    },
    async (request) => ok(await createUserGroup(db, request.body)),
  );

  app.get(
    '/v1/user-groups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(UserGroup) } },
    },
    async (request) => ok(await readUserGroup(db, request.params.id)),
  );

  app.put(
    '/v1/user-groups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, body: UpdateUserGroupBody, response: { 200: Envelope(UserGroup) } },
    },
    async (request) => ok(await changeUserGroup(db, request.params.id, request.body)),
  );

  app.delete(
    '/v1/user-groups/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminUser, PERMISSIONS.adminSys) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeUserGroup(db, request.params.id);
      return ok(null);
    },
  );
}
