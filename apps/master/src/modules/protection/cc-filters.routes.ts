import {
  CcBatchBody,
  CcFilter,
  CcListQuery,
  CreateCcFilterBody,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  UpdateCcFilterBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { findFilters, listFilters, presentFilter } from './cc-filters.repository.ts';
import { createFilter, editFilter, removeFilters } from './cc-filters.service.ts';

const tags = ['protection'];

/** /v1/cc-filters: what a client that matches must pass. */
export async function ccFilterRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/cc-filters',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: CcListQuery, response: { 200: Envelope(ListResult(CcFilter)) } },
    },
    async (request) => ok(await listFilters(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/cc-filters',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateCcFilterBody, response: { 200: Envelope(CcFilter) } },
    },
    async (request) => ok(await createFilter(db, ownerOf(request), request.body)),
  );

  app.put(
    '/v1/cc-filters',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CcBatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeFilters(db, ownerOf(request), request.body.ids);
      return ok(null);
    },
  );

  app.get(
    '/v1/cc-filters/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(CcFilter) } },
    },
    async (request) => {
      const [row] = await findFilters(db, ownerOf(request), [request.params.id]);
      if (!row) throw new AppError('not_found', `filter ${request.params.id} does not exist`);
      return ok(presentFilter(row));
    },
  );

  app.put(
    '/v1/cc-filters/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateCcFilterBody, response: { 200: Envelope(CcFilter) } },
    },
    async (request) => ok(await editFilter(db, ownerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/v1/cc-filters/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await removeFilters(db, ownerOf(request), [request.params.id]);
      return ok(null);
    },
  );
}
