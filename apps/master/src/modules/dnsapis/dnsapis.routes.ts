import {
  CreateDnsApiBody,
  DnsApi,
  DomainSyncResult,
  Envelope,
  Id,
  IdParams,
  ListResult,
  PERMISSIONS,
  SyncDomainsBody,
  UpdateDnsApiBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { cnameTarget, defaultCnameDomain } from '../cname/cname.repository.ts';
import { findSite } from '../sites/sites.repository.ts';
import { ownerOf } from '../tenancy.ts';
import { countCertsUsingDnsApi, findDnsApi, listDnsApis, presentDnsApi } from './dnsapis.repository.ts';
import { providerOf, verifiedCredentials } from './dnsapis.service.ts';
import { isProviderName, zoneOf } from './providers.ts';

const tags = ['dns'];

/** DNS provider accounts (credentials sealed at rest, never returned) and CNAME records made through them. */
export async function dnsApiRoutes(app: App, { db, secrets }: AppContext) {
  const notFound = (id: number) => new AppError('not_found', `DNS API ${id} does not exist`);

  app.get(
    '/v1/dnsapis',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, response: { 200: Envelope(ListResult(DnsApi)) } },
    },
    async (request) => {
      const rows = await listDnsApis(db, ownerOf(request));
      return ok({ list: rows.map(presentDnsApi), total: rows.length });
    },
  );

  app.post(
    '/v1/dnsapis',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateDnsApiBody, response: { 200: Envelope(DnsApi) } },
    },
    async (request) => {
      const sealed = await verifiedCredentials(db, secrets, request.body.provider, request.body.credentials);
      const now = Date.now();
      const row = await db
        .insertInto('dnsapis')
        .values({
          user_id: ownerOf(request).userId,
          name: request.body.name,
          provider: request.body.provider,
          credentials: sealed,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(presentDnsApi(row));
    },
  );

  app.get(
    '/v1/dnsapis/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(DnsApi) } },
    },
    async (request) => {
      const row = await findDnsApi(db, ownerOf(request), request.params.id);
      if (!row) throw notFound(request.params.id);
      return ok(presentDnsApi(row));
    },
  );

  app.put(
    '/v1/dnsapis/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: UpdateDnsApiBody, response: { 200: Envelope(DnsApi) } },
    },
    async (request) => {
      const row = await findDnsApi(db, ownerOf(request), request.params.id);
      if (!row) throw notFound(request.params.id);
      if (!isProviderName(row.provider)) throw new AppError('conflict', `DNS API ${row.id} has an unknown provider`);
      const credentials = request.body.credentials
        ? await verifiedCredentials(db, secrets, row.provider, request.body.credentials)
        : row.credentials;
      const updated = await db
        .updateTable('dnsapis')
        .set({ name: request.body.name ?? row.name, credentials, updated_at: Date.now() })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(presentDnsApi(updated));
    },
  );

  app.delete(
    '/v1/dnsapis/:id',
    { config: { policy: policy.tenant(PERMISSIONS.adminUser) }, schema: { tags, params: IdParams } },
    async (request) => {
      const row = await findDnsApi(db, ownerOf(request), request.params.id);
      if (!row) throw notFound(request.params.id);
      const certs = await countCertsUsingDnsApi(db, row.id);
      if (certs > 0) {
        throw new AppError(
          'conflict',
          `${certs} ACME certificate(s) renew through this DNS API; change or delete them first`,
        );
      }
      await db.deleteFrom('dnsapis').where('id', '=', row.id).execute();
      return ok(null);
    },
  );

  app.get(
    '/v1/domains',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: Type.Object({ dnsapi_id: Id }) },
    },
    async (request) => {
      const row = await findDnsApi(db, ownerOf(request), request.query.dnsapi_id);
      if (!row) throw notFound(request.query.dnsapi_id);
      const zones = await (await providerOf(db, secrets, row)).listZones();
      return ok({ list: zones.map((zone) => ({ zone })), total: zones.length });
    },
  );

  app.post(
    '/v1/domains',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        body: SyncDomainsBody,
        response: { 200: Envelope(DomainSyncResult) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const [row, site] = await Promise.all([
        findDnsApi(db, owner, request.body.dnsapi_id),
        findSite(db, owner, request.body.site_id),
      ]);
      if (!row) throw notFound(request.body.dnsapi_id);
      if (!site) throw new AppError('not_found', `site ${request.body.site_id} does not exist`);
      const target = cnameTarget(site.id, await defaultCnameDomain(db));
      if (!target) throw new AppError('conflict', 'no CNAME domain is set up yet; an administrator adds one first');
      const provider = await providerOf(db, secrets, row);
      const zones = await provider.listZones();
      const { domains } = JSON.parse(site.settings) as { domains: string[] };
      const results = [];
      for (const domain of domains) {
        const zone = zoneOf(domain, zones) ?? null;
        if (!zone) {
          results.push({ domain, zone, ok: false, error: 'no zone of this DNS API holds the domain' });
          continue;
        }
        try {
          await provider.setCname(zone, domain, target);
          results.push({ domain, zone, ok: true, error: '' });
        } catch (error) {
          results.push({ domain, zone, ok: false, error: error instanceof Error ? error.message : 'failed' });
        }
      }
      return ok({ target, domains: results });
    },
  );
}
