import {
  Ban,
  BanCount,
  BanListQuery,
  CreateBanBody,
  Envelope,
  LiftBanBody,
  ListResult,
  PERMISSIONS,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { countBans, listBans } from './bans.repository.ts';
import { addBan, liftBan } from './bans.service.ts';

const tags = ['protection'];

/** Bans: manual ones and those edges set on their own; current, history, counts per site. */
export async function banRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/monitor/site/blackip',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: BanListQuery, response: { 200: Envelope(ListResult(Ban)) } },
    },
    async (request) => ok(await listBans(db, ownerOf(request), 'current', request.query, Date.now())),
  );

  app.post(
    '/v1/monitor/site/blackip',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateBanBody, response: { 200: Envelope(Ban) } },
    },
    async (request) => ok(await addBan(db, ownerOf(request), request.body)),
  );

  app.delete(
    '/v1/monitor/site/blackip',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: LiftBanBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await liftBan(db, ownerOf(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/v1/monitor/site/history-blackip',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: BanListQuery, response: { 200: Envelope(ListResult(Ban)) } },
    },
    async (request) => ok(await listBans(db, ownerOf(request), 'history', request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/site/blackip-count',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, response: { 200: Envelope(ListResult(BanCount)) } },
    },
    async (request) => {
      const list = await countBans(db, ownerOf(request), Date.now());
      return ok({ list, total: list.length });
    },
  );
}
