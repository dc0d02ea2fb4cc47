import {
  CcBatchBody,
  CcListQuery,
  CcMatch,
  CreateCcMatchBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  UpdateCcMatchBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { findMatches, listMatches, presentMatch } from './cc-matches.repository.ts';
import { createMatch, editMatch, removeMatches } from './cc-matches.service.ts';

const tags = ['protection'];

/** /v1/cc-matchs: which requests a rule line selects. */
export async function ccMatchRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/cc-matchs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: CcListQuery, response: { 200: Envelope(ListResult(CcMatch)) } },
    },
    async (request) => ok(await listMatches(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/cc-matchs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateCcMatchBody, response: { 200: Envelope(CcMatch) } },
    },
    async (request) => ok(await createMatch(db, ownerOf(request), request.body)),
  );

  app.put(
    '/v1/cc-matchs',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CcBatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeMatches(db, ownerOf(request), request.body.ids);
      return ok(null);
    },
  );

  app.get(
    '/v1/cc-matchs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(CcMatch) } },
    },
    async (request) => {
      const [row] = await findMatches(db, ownerOf(request), [request.params.id]);
      if (!row) throw new AppError('not_found', `match ${request.params.id} does not exist`);
      return ok(presentMatch(row));
    },
  );

  app.put(
    '/v1/cc-matchs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateCcMatchBody, response: { 200: Envelope(CcMatch) } },
    },
    async (request) => ok(await editMatch(db, ownerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/v1/cc-matchs/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeMatches(db, ownerOf(request), [request.params.id]);
      return ok(null);
    },
  );
}
