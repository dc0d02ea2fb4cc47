import {
  CcBatchBody,
  CcListQuery,
  CcRuleGroup,
  CreateCcRuleGroupBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  UpdateCcRuleGroupBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { findGroups, listGroups, presentGroups } from './cc-rule-groups.repository.ts';
import { createGroup, editGroup, removeGroups } from './cc-rule-groups.service.ts';

const tags = ['protection'];

/** /v1/cc-rules: rule groups, ordered lines of (match, filter, action) a site runs. */
export async function ccRuleGroupRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/cc-rules',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: CcListQuery, response: { 200: Envelope(ListResult(CcRuleGroup)) } },
    },
    async (request) => ok(await listGroups(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/cc-rules',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateCcRuleGroupBody, response: { 200: Envelope(CcRuleGroup) } },
    },
    async (request) => ok(await createGroup(db, ownerOf(request), request.body)),
  );

  app.put(
    '/v1/cc-rules',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CcBatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeGroups(db, ownerOf(request), request.body.ids);
      return ok(null);
    },
  );

  app.get(
    '/v1/cc-rules/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(CcRuleGroup) } },
    },
    async (request) => {
      const rows = await findGroups(db, ownerOf(request), [request.params.id]);
      const [group] = await presentGroups(db, rows);
      if (!group) throw new AppError('not_found', `rule group ${request.params.id} does not exist`);
      return ok(group);
    },
  );

  app.put(
    '/v1/cc-rules/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateCcRuleGroupBody, response: { 200: Envelope(CcRuleGroup) } },
    },
    async (request) => ok(await editGroup(db, ownerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/v1/cc-rules/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeGroups(db, ownerOf(request), [request.params.id]);
      return ok(null);
    },
  );
}
