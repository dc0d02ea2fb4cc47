import { CnameCheck, Domain, Envelope, Id, IdParams, PERMISSIONS } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { publishLineGroups } from '../line-groups/publish.ts';
import { publishSiteCnames } from '../line-groups/site-cnames.ts';
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
    /** The DNS API account line groups' records under this domain are published through. */
    dnsapi_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'a DNS API account, or null' })),
    /** The zone at that account the domain lives in; '' finds it from the account's zones. */
    zone: Type.Optional(Type.Union([Type.Literal(''), Domain], { description: 'empty or a zone such as example.net' })),
  },
  { additionalProperties: false },
);
const CnameDomainUpdate = Type.Object(
  {
    is_default: CnameDomainBody.properties.is_default,
    note: CnameDomainBody.properties.note,
    dnsapi_id: CnameDomainBody.properties.dnsapi_id,
    zone: CnameDomainBody.properties.zone,
  },
  { additionalProperties: false },
);
const COLUMNS = ['id', 'domain', 'is_default', 'note', 'dnsapi_id', 'zone'] as const;

/** The account must exist and the domain must lie in the zone; each refusal names its field. */
async function checkPublishing(
  db: AppContext['db'],
  domain: string,
  fields: { dnsapi_id?: number | null | undefined; zone?: string | undefined },
) {
  if (fields.dnsapi_id !== undefined && fields.dnsapi_id !== null) {
    const account = await db.selectFrom('dnsapis').select('id').where('id', '=', fields.dnsapi_id).executeTakeFirst();
    if (!account) throw new AppError('not_found', `dnsapi_id: DNS API ${fields.dnsapi_id} does not exist`);
  }
  if (fields.zone && domain !== fields.zone && !domain.endsWith(`.${fields.zone}`)) {
    throw new AppError('invalid_param', `zone: ${domain} is not in the zone ${fields.zone}`);
  }
}
const notFound = (id: number) => new AppError('not_found', `CNAME domain ${id} does not exist`);

export async function cnameRoutes(app: App, { db, secrets }: AppContext) {
  const present = (row: {
    id: number;
    domain: string;
    is_default: number;
    note: string;
    dnsapi_id: number | null;
    zone: string;
  }) => ({
    ...row,
    is_default: row.is_default === 1,
  });
  /** The line groups under a domain are published again where its account or zone changed. */
  const republish = async (cnameDomainId: number) => {
    const groups = await db
      .selectFrom('node_groups')
      .select('id')
      .where('cname_domain_id', '=', cnameDomainId)
      .execute();
    if (groups.length > 0)
      await publishLineGroups(
        db,
        secrets,
        app.log,
        groups.map((group) => group.id),
      );
  };

  app.get(
    '/v1/cname-domains',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags } },
    async () => {
      const rows = await listCnameDomains(db);
      return ok({ list: rows.map(present), total: rows.length });
    },
  );

  app.post(
    '/v1/cname-domains',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, body: CnameDomainBody } },
    async (request) => {
      const { domain, is_default = false, note = '', dnsapi_id = null, zone = '' } = request.body;
      if (domain.startsWith('*.')) throw new AppError('invalid_param', 'domain: a CNAME domain cannot be a wildcard');
      await checkPublishing(db, domain, { dnsapi_id, zone });
      const row = await db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('cname_domains').select('id').where('domain', '=', domain).executeTakeFirst()) {
          throw new AppError('conflict', `domain: ${domain} is already a CNAME domain`);
        }
        if (is_default) await trx.updateTable('cname_domains').set({ is_default: 0 }).execute();
        return trx
          .insertInto('cname_domains')
          .values({ domain, is_default: is_default ? 1 : 0, note, dnsapi_id, zone, created_at: Date.now() })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
      return ok(present(row));
    },
  );

  app.get(
    '/v1/cname-domains/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      const row = await findCnameDomain(db, request.params.id);
      if (!row) throw notFound(request.params.id);
      return ok(present(row));
    },
  );

  // The domain itself stays: sites' CNAME targets hang under it (add another and make it the default instead).
  app.put(
    '/v1/cname-domains/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: { tags, params: IdParams, body: CnameDomainUpdate },
    },
    async (request) => {
      const { is_default, note, dnsapi_id, zone } = request.body;
      const row = await db.transaction().execute(async (trx) => {
        const current = await findCnameDomain(trx, request.params.id);
        if (!current) throw notFound(request.params.id);
        await checkPublishing(trx, current.domain, { dnsapi_id, zone });
        const changes = {
          ...(is_default !== undefined && { is_default: is_default ? 1 : 0 }),
          ...(note !== undefined && { note }),
          ...(dnsapi_id !== undefined && { dnsapi_id }),
          ...(zone !== undefined && { zone }),
        };
        // An empty body changes nothing (an UPDATE with no column would be a syntax error).
        if (Object.keys(changes).length === 0) return current;
        if (is_default) await trx.updateTable('cname_domains').set({ is_default: 0 }).execute();
        return trx
          .updateTable('cname_domains')
          .set(changes)
          .where('id', '=', request.params.id)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
      if (dnsapi_id !== undefined || zone !== undefined) await republish(row.id);
      // Sites' CNAME targets hang under the default domain: they move with it or with its account.
      if (is_default || (row.is_default === 1 && (dnsapi_id !== undefined || zone !== undefined)))
        await publishSiteCnames(db, secrets, app.log);
      return ok(present(row));
    },
  );

  app.delete(
    '/v1/cname-domains/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminNode) }, schema: { tags, params: IdParams } },
    async (request) => {
      const row = await db
        .deleteFrom('cname_domains')
        .where('id', '=', request.params.id)
        .returning('id')
        .executeTakeFirst();
      if (!row) throw notFound(request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/v1/cname-check',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
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
