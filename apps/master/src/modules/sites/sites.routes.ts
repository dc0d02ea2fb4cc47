import { domainToASCII } from 'node:url';
import {
  ApplyStatus,
  CreateSiteBody,
  DomainProofCheck,
  Envelope,
  Id,
  IdParams,
  ListQuery,
  ListResult,
  PERMISSIONS,
  Site,
  UpdateSiteBody,
} from '@rampart/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { holds, policy } from '../../plugins/route-policy.ts';
import { siteCnameContext } from '../cname/cname.repository.ts';
import { publishSiteCnames } from '../line-groups/site-cnames.ts';
import { applyStatus } from '../nodes/apply-status.ts';
import { creatorOf, ownerOf } from '../tenancy.ts';
import { ensureDomainProofs } from './domain-proofs.repository.ts';
import {
  checkSiteDomainProofs,
  settleDomainProofChecks,
  startDomainProofs,
  withDomainProofs,
} from './domain-proofs.service.ts';
import { isIpLiteral } from './site-claims.ts';
import { proofsOfPage, readSitePage, type SiteFilter, type SiteSort } from './site-list.repository.ts';
import { siteListJson } from './site-list-json.ts';
import { IP_LITERAL } from './site-rules.ts';
import { findSite, presentSite } from './sites.repository.ts';
import { batchSites, createSite, editSite } from './sites.service.ts';

const tags = ['sites'];
const SiteListQuery = Type.Object({
  ...ListQuery.properties,
  domain: Type.Optional(Type.String({ maxLength: 253 })),
  group_id: Type.Optional(Id),
  enabled: Type.Optional(Type.Boolean()),
  https: Type.Optional(Type.Boolean()),
  cert_id: Type.Optional(Id),
  user_id: Type.Optional(Id),
  sort: Type.Optional(
    Type.Union(['id', '-id', 'domain', '-domain', 'updated_at', '-updated_at'].map((value) => Type.Literal(value))),
  ),
});
const CreateBody = Type.Object(
  { ...CreateSiteBody.properties, user_id: Type.Optional(Id) },
  { additionalProperties: false },
);
const BatchBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
    action: Type.Union(
      [Type.Literal('enable'), Type.Literal('disable'), Type.Literal('delete'), Type.Literal('move')],
      {
        description: 'enable, disable, delete or move',
      },
    ),
    group_id: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  { additionalProperties: false },
);

/**
 * Domains arrive as typed: spaces trimmed, lowercased and converted from Unicode (IDNA) before
 * validation. A value with control characters is left alone so validation refuses it: the URL
 * standard's domainToASCII would silently drop CR, LF and tab.
 */
export function normalizeDomain(domain: string): string {
  const trimmed = domain
    .replace(/^ +| +$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting control characters is the point
  if (/^[\x20-\x7e]*$/.test(trimmed) || /[\u0000-\u001f\u007f]/.test(trimmed)) return trimmed;
  const wildcard = trimmed.startsWith('*.');
  const ascii = domainToASCII(wildcard ? trimmed.slice(2) : trimmed);
  return ascii ? `${wildcard ? '*.' : ''}${ascii}` : trimmed;
}

async function normalizeDomains(request: FastifyRequest) {
  const body = request.body as { domains?: unknown } | undefined;
  if (body && Array.isArray(body.domains)) {
    const domains = body.domains.map((domain) => (typeof domain === 'string' ? normalizeDomain(domain) : domain));
    body.domains = domains;
    // Before the schema, which would turn an IPv6 address down without saying it is one.
    for (const [index, domain] of domains.entries()) {
      if (typeof domain === 'string' && isIpLiteral(domain))
        throw invalidParam(`body/domains/${index}`, IP_LITERAL(domain));
    }
  }
}

/**
 * Which line group a site answers from is the operator's choice, not the customer's: an admin who
 * reaches the site (admin:user) and holds the line groups (admin:node).
 */
function checkLineGroupChoice(request: FastifyRequest<{ Body: { line_group_id?: number | null } }>) {
  if (request.body.line_group_id === undefined) return;
  if (ownerOf(request).kind !== 'admin') {
    throw new AppError('forbidden', "line_group_id: only an administrator chooses a site's line group");
  }
  if (!holds(caller(request).user, [PERMISSIONS.adminNode])) {
    throw new AppError('forbidden', `line_group_id: this needs the ${PERMISSIONS.adminNode} permission`);
  }
}

/**
 * Sends an answer already written as the route's response schema would write it (site-list-json.ts),
 * which the type provider's send() does not take as text.
 */
const sendWritten = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);

/** Who reads a site: its owner alone sees its proof tokens. */
const viewerOf = (request: FastifyRequest) => caller(request).user.id;

export async function siteRoutes(app: App, { db, secrets }: AppContext) {
  const presentOne = async (site: Site, request: FastifyRequest) =>
    (await withDomainProofs(db, [site], viewerOf(request)))[0] ?? site;
  app.addHook('onClose', settleDomainProofChecks);

  app.get(
    '/v1/sites',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: SiteListQuery, response: { 200: Envelope(ListResult(Site)) } },
    },
    async (request, reply) => {
      const { page = 1, limit = 20, domain, group_id, enabled, https, cert_id, user_id, sort } = request.query;
      const filter: SiteFilter = {
        domain,
        groupId: group_id,
        enabled,
        https,
        certId: cert_id,
        userId: user_id,
        sort: sort as SiteSort | undefined,
      };
      const found = await readSitePage(db, ownerOf(request), filter, page, limit);
      return sendWritten(reply, siteListJson(found, await proofsOfPage(db, found), viewerOf(request)));
    },
  );

  app.post(
    '/v1/sites',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      preValidation: normalizeDomains,
      schema: { tags, body: CreateBody, response: { 200: Envelope(Site) } },
    },
    async (request) => {
      checkLineGroupChoice(request);
      const { user_id, ...body } = request.body;
      const userId = await creatorOf(db, ownerOf(request), user_id);
      const site = await createSite(db, userId, body);
      // Its CNAME target points at the default line group (where a DNS API publishes the CNAME domain).
      await publishSiteCnames(db, secrets, app.log, { siteIds: [site.id] });
      const presented = presentSite(site, await siteCnameContext(db));
      await startDomainProofs(db, app.log, presented);
      return ok(await presentOne(presented, request));
    },
  );

  app.put(
    '/v1/sites',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: BatchBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await batchSites(db, ownerOf(request), request.body.ids, request.body.action, request.body.group_id);
      return ok(null);
    },
  );

  app.get(
    '/v1/sites/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Site) } },
    },
    async (request) => {
      const row = await findSite(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `site ${request.params.id} does not exist`);
      return ok(await presentOne(presentSite(row, await siteCnameContext(db)), request));
    },
  );

  app.put(
    '/v1/sites/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      preValidation: normalizeDomains,
      schema: { tags, params: IdParams, body: UpdateSiteBody, response: { 200: Envelope(Site) } },
    },
    async (request) => {
      checkLineGroupChoice(request);
      const site = await editSite(db, ownerOf(request), request.params.id, request.body);
      if (request.body.line_group_id !== undefined)
        await publishSiteCnames(db, secrets, app.log, { siteIds: [site.id] });
      const presented = presentSite(site, await siteCnameContext(db));
      await startDomainProofs(db, app.log, presented);
      return ok(await presentOne(presented, request));
    },
  );

  app.delete(
    '/v1/sites/:id',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      await batchSites(db, ownerOf(request), [request.params.id], 'delete', undefined);
      return ok(null);
    },
  );

  app.post(
    '/v1/sites/:id/domain-proofs/check',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description:
          "Checks DNS now for each domain of the site not yet proved (TXT record _rampart-challenge.<domain> holding the owner's token, or the domain's CNAME at the site's target) and answers each domain's proof with the reason it is not proved",
        params: IdParams,
        response: { 200: Envelope(DomainProofCheck) },
      },
    },
    async (request) => {
      const row = await findSite(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `site ${request.params.id} does not exist`);
      const site = presentSite(row, await siteCnameContext(db));
      await ensureDomainProofs(db, row.user_id, site.domains, Date.now());
      await checkSiteDomainProofs(db, [row.id]);
      const [checked] = await withDomainProofs(db, [site], viewerOf(request));
      return ok({ required: checked?.domain_proof_required ?? false, domains: checked?.domain_proofs ?? [] });
    },
  );

  app.get(
    '/v1/sites/:id/apply-status',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(ApplyStatus) } },
    },
    async (request) => {
      const row = await findSite(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `site ${request.params.id} does not exist`);
      return ok(await applyStatus(db, 'site', row.id, row.version));
    },
  );
}
