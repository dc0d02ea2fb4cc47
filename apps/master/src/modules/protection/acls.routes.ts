import {
  Acl,
  AclListQuery,
  CreateAclBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  UpdateAclBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { findAcl, listAcls, presentAcl } from './acls.repository.ts';
import { createAcl, editAcl, removeAcl } from './acls.service.ts';

const tags = ['protection'];

/** /v1/acls: a site's ordered allow/deny list, one per site. */
export async function aclRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/acls',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: AclListQuery, response: { 200: Envelope(ListResult(Acl)) } },
    },
    async (request) => ok(await listAcls(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/acls',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateAclBody, response: { 200: Envelope(Acl) } },
    },
    async (request) => ok(await createAcl(db, ownerOf(request), request.body)),
  );

  app.get(
    '/v1/acls/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Acl) } },
    },
    async (request) => {
      const row = await findAcl(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `ACL ${request.params.id} does not exist`);
      return ok(presentAcl(row));
    },
  );

  app.put(
    '/v1/acls/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateAclBody, response: { 200: Envelope(Acl) } },
    },
    async (request) => ok(await editAcl(db, ownerOf(request), request.params.id, request.body.entries)),
  );

  app.delete(
    '/v1/acls/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeAcl(db, ownerOf(request), request.params.id);
      return ok(null);
    },
  );
}
