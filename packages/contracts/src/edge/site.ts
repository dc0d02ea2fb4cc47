import { type Static, type TOptional, type TSchema, Type } from 'typebox';
import { Id } from '../fields.ts';
import { OwnerAccount } from '../user.ts';
import { DomainProof } from './domain-proof.ts';
import { ERROR_PAGE_STATUSES, ErrorPageHtml, type ErrorPageStatus } from './error-page-fields.ts';
import {
  Domain,
  FileExtension,
  HeaderName,
  HeaderValue,
  HostHeader,
  ObjectName,
  OriginAddress,
  PathPrefix,
  Port,
} from './fields.ts';
import { SiteHealthCheck } from './health-check.ts';
import { SiteHotlink } from './hotlink.ts';
import { SiteProtection } from './protection.ts';
import { SiteRedirects } from './redirects.ts';
import { SiteUrlAuth } from './url-auth.ts';

export const Origin = Type.Object(
  {
    address: OriginAddress,
    port: Port,
    weight: Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'a weight from 1 to 100' }),
    backup: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);
export type Origin = Static<typeof Origin>;

export const Balance = Type.Union([Type.Literal('round_robin'), Type.Literal('ip_hash'), Type.Literal('weighted')], {
  description: 'round_robin, ip_hash or weighted',
});
export type Balance = Static<typeof Balance>;

export const Header = Type.Object({ name: HeaderName, value: HeaderValue }, { additionalProperties: false });
export type Header = Static<typeof Header>;

export const CacheRule = Type.Object(
  {
    match: Type.Union([Type.Literal('prefix'), Type.Literal('extension')], { description: 'prefix or extension' }),
    value: Type.Union([PathPrefix, FileExtension]),
    ttl: Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'seconds from 0 to 31536000' }),
    ignore_query: Type.Boolean({ default: false }),
    honor_origin: Type.Boolean({ default: false, description: 'let the origin Cache-Control decide the TTL' }),
  },
  { additionalProperties: false },
);
export type CacheRule = Static<typeof CacheRule>;

/**
 * A site's own error pages, one HTML page a status, in place of the fleet's (/config/error) for its
 * visitors. A page answers where the fleet has a page for that status (nginx sends only those
 * statuses to the pages), and always for `waf` (the WAF's refusal).
 */
export const SiteErrorPages = Type.Object(
  Object.fromEntries(ERROR_PAGE_STATUSES.map((status) => [status, Type.Optional(ErrorPageHtml)])) as Record<
    ErrorPageStatus,
    ReturnType<typeof Type.Optional<typeof ErrorPageHtml>>
  >,
  { additionalProperties: false, description: `pages by status (${ERROR_PAGE_STATUSES.join(', ')})` },
);
export type SiteErrorPages = Static<typeof SiteErrorPages>;

/** The fields a customer sets on a site; the same shape is rendered by the agent. */
export const SiteSettings = Type.Object(
  {
    domains: Type.Array(Domain, { minItems: 1, maxItems: 100, description: '1 to 100 domains' }),
    origins: Type.Array(Origin, { minItems: 1, maxItems: 64, description: '1 to 64 origins' }),
    balance: Balance,
    origin_protocol: Type.Union([Type.Literal('http'), Type.Literal('https'), Type.Literal('follow')], {
      description: 'http, https or follow',
    }),
    origin_host: HostHeader,
    http_listen: Type.Boolean(),
    https_listen: Type.Boolean(),
    cert_id: Type.Union([Id, Type.Null()]),
    force_https: Type.Boolean(),
    hsts: Type.Boolean(),
    http2: Type.Boolean(),
    websocket: Type.Boolean(),
    gzip: Type.Boolean(),
    request_headers: Type.Array(Header, { maxItems: 32 }),
    response_headers: Type.Array(Header, { maxItems: 32 }),
    cache_rules: Type.Array(CacheRule, { maxItems: 64 }),
    enabled: Type.Boolean(),
    /** Absent on sites saved before protection existed: read as DEFAULT_SITE_PROTECTION. */
    protection: Type.Optional(SiteProtection),
    /** Absent on sites saved before it existed: read as DEFAULT_SITE_HOTLINK (off). */
    hotlink: Type.Optional(SiteHotlink),
    /** Absent on sites saved before it existed: no pages of its own (the fleet's). */
    error_pages: Type.Optional(SiteErrorPages),
    /** Absent on sites saved before it existed: read as DEFAULT_SITE_URL_AUTH (off). */
    url_auth: Type.Optional(SiteUrlAuth),
    /** Absent on sites saved before it existed: read as DEFAULT_SITE_REDIRECTS (none). */
    redirects: Type.Optional(SiteRedirects),
    /** Absent on sites saved before it existed: read as DEFAULT_SITE_HEALTH_CHECK (off). */
    health_check: Type.Optional(SiteHealthCheck),
  },
  { additionalProperties: false },
);
export type SiteSettings = Static<typeof SiteSettings>;

export const SiteGroupRef = Type.Union([Id, Type.Null()]);
/** The line group the site's CNAME target points at; null: the default line group. Administrators only. */
export const LineGroupRef = Type.Union([Id, Type.Null()], {
  description: 'a line group (administrators only), or null for the default one',
});

export const SiteCnameState = Type.Union(
  [Type.Literal('ready'), Type.Literal('no_cname_domain'), Type.Literal('no_line_group')],
  {
    description:
      'ready: cname is the target to point the domains at; no_cname_domain: the operator has set up no CNAME domain yet (cname is empty); no_line_group: the site has no line group and there is no default one, so no edge answers the target yet',
  },
);
export type SiteCnameState = Static<typeof SiteCnameState>;

export const Site = Type.Intersect([
  SiteSettings,
  Type.Object({
    id: Type.Integer(),
    user_id: Type.Integer(),
    user_account: Type.Optional(OwnerAccount),
    group_id: SiteGroupRef,
    line_group_id: Type.Union([Type.Integer(), Type.Null()], {
      description: "the line group its CNAME points at (set by an administrator); null: the default group's",
    }),
    name: Type.String(),
    cname: Type.String({ description: 'where the domains must point (CNAME); empty until a CNAME domain is set up' }),
    cname_state: SiteCnameState,
    domain_proof_required: Type.Optional(
      Type.Boolean({ description: 'whether a domain reaches the edges only once proved (the domain_proof setting)' }),
    ),
    domain_proofs: Type.Optional(Type.Array(DomainProof, { description: "each domain's proof of ownership" })),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
]);
export type Site = Static<typeof Site>;

const optional = <T extends Record<string, TSchema>>(properties: T) =>
  Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

/** POST /v1/sites: domains and origins are required; every other setting takes its default. */
export const CreateSiteBody = Type.Object(
  {
    ...optional(SiteSettings.properties),
    domains: SiteSettings.properties.domains,
    origins: SiteSettings.properties.origins,
    name: Type.Optional(ObjectName),
    group_id: Type.Optional(SiteGroupRef),
    line_group_id: Type.Optional(LineGroupRef),
    /** The owner's user package it counts against (default: their only active one). */
    user_package_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type CreateSiteBody = Static<typeof CreateSiteBody>;

/** PUT /v1/sites/{id}: any subset of the settings. */
export const UpdateSiteBody = Type.Object(
  {
    ...optional(SiteSettings.properties),
    name: Type.Optional(ObjectName),
    group_id: Type.Optional(SiteGroupRef),
    line_group_id: Type.Optional(LineGroupRef),
  },
  { additionalProperties: false },
);
export type UpdateSiteBody = Static<typeof UpdateSiteBody>;

export const SiteGroup = Type.Object({ id: Type.Integer(), user_id: Type.Integer(), name: Type.String() });
export type SiteGroup = Static<typeof SiteGroup>;
