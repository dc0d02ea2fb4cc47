import { CnameCheck, Domain, Envelope, Id, IdParams, PERMISSIONS } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { findSite } from '../sites/sites.repository.ts';
import { ownerOf } from '../tenancy.ts';
import { cnameTarget, defaultCnameDomain, findCnameDomain, listCnameDomains } from './cname.repository.ts';
import { checkCnames } from './cname-check.ts';

const tags = ['sites'];
const CnameDomainBody = Type.Object(
  {
    domain: Domain,
    is_default: Type.Optional(Type.Boolean()),
    note: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000-\\u001f]*$' })),
  },
  { additionalProperties: false },
);
const CnameDomainUpdate = Type.Object(
  { is_default: CnameDomainBody.properties.is_default, note: CnameDomainBody.properties.note },
  { additionalProperties: false },
);
const notFound = (id: number) => new AppError('not_found', `CNAME domain ${id} does not exist`);

export async function cnameRoutes(app: App, { db }: AppContext) {
  const present = (row: { id: number; domain: string; is_default: number; note: string }) => ({
    ...row,
    is_default: row.is_default === 1,
  });

  app.get('/v1/cname-domains', { schema: { tags } }, async (request) => {
    requirePermission(request, PERMISSIONS.adminNode);
    const rows = await listCnameDomains(db);
    return ok({ list: rows.map(present), total: rows.length });
  });

  app.post('/v1/cname-domains', { schema: { tags, body: CnameDomainBody } }, async (request) => {
    requirePermission(request, PERMISSIONS.adminNode);
    const { domain, is_default = false, note = '' } = request.body;
    if (domain.startsWith('*.')) throw new AppError('invalid_param', 'domain: a CNAME domain cannot be a wildcard');
    const row = await db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('cname_domains').select('id').where('domain', '=', domain).executeTakeFirst()) {
        throw new AppError('conflict', `domain: ${domain} is already a CNAME domain`);
      }
      if (is_default) await trx.updateTable('cname_domains').set({ is_default: 0 }).execute();
      return trx
        .insertInto('cname_domains')
        .values({ domain, is_default: is_default ? 1 : 0, note, created_at: Date.now() })
        .returning(['id', 'domain', 'is_default', 'note'])
        .executeTakeFirstOrThrow();
    });
    return ok(present(row));
  });

  app.get('/v1/cname-domains/:id', { schema: { tags, params: IdParams } }, async (request) => {
    requirePermission(request, PERMISSIONS.adminNode);
    const row = await findCnameDomain(db, request.params.id);
    if (!row) throw notFound(request.params.id);
    return ok(present(row));
  });

  // The domain itself stays: sites' CNAME targets hang under it (add another and make it the default instead).
  app.put('/v1/cname-domains/:id', { schema: { tags, params: IdParams, body: CnameDomainUpdate } }, async (request) => {
    requirePermission(request, PERMISSIONS.adminNode);
    const { is_default, note } = request.body;
    const row = await db.transaction().execute(async (trx) => {
      if (!(await findCnameDomain(trx, request.params.id))) throw notFound(request.params.id);
      if (is_default) await trx.updateTable('cname_domains').set({ is_default: 0 }).execute();
      return trx
        .updateTable('cname_domains')
        .set({
          ...(is_default !== undefined && { is_default: is_default ? 1 : 0 }),
          ...(note !== undefined && { note }),
        })
        .where('id', '=', request.params.id)
        .returning(['id', 'domain', 'is_default', 'note'])
        .executeTakeFirstOrThrow();
    });
    return ok(present(row));
  });

  app.delete('/v1/cname-domains/:id', { schema: { tags, params: IdParams } }, async (request) => {
    requirePermission(request, PERMISSIONS.adminNode);
    const row = await db
      .deleteFrom('cname_domains')
      .where('id', '=', request.params.id)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound(request.params.id);
    return ok(null);
  });

  app.post(
    '/v1/cname-check',
    {
      schema: {
        tags,
        body: Type.Object({ site_id: Id }, { additionalProperties: false }),
        response: { 200: Envelope(CnameCheck) },
      },
    },
    async (request) => {
      const site = await findSite(db, ownerOf(request), request.body.site_id);
      if (!site) throw new AppError('not_found', `site ${request.body.site_id} does not exist`);
      const target = cnameTarget(site.id, await defaultCnameDomain(db));
      if (!target) throw new AppError('conflict', 'no CNAME domain is set up yet; an administrator adds one first');
      const { domains } = JSON.parse(site.settings) as { domains: string[] };
      const { dns_resolver } = await loadSettings(db);
      return ok({ target, domains: await checkCnames(domains, target, dns_resolver) });
    },
  );
}
