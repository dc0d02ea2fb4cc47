import { type Static, Type } from 'typebox';
import { AgentMasterList } from './agent-masters.ts';
import { EdgeSettings } from './edge-settings.ts';
import { BandwidthBps, SiteEnforcement, StreamEnforcement } from './enforcement.ts';
import { Port } from './fields.ts';
import { EdgeGeoip } from './geoip.ts';
import { EdgeProtection, SiteProtection } from './protection.ts';
import { SiteSettings } from './site.ts';
import { StreamSettings } from './stream.ts';

/**
 * What an agent renders: the whole configuration for one node at one config version. The agent
 * validates every site and stream again with these schemas and skips (and reports) what fails.
 */
export const EdgeSite = Type.Object({
  id: Type.Integer(),
  ...SiteSettings.properties,
  /** Absent while the site's package is active (or it has none). */
  enforcement: Type.Optional(SiteEnforcement),
  /** The package's bandwidth cap, for all of the site's requests on one node together; absent: unlimited. */
  bandwidth_bps: Type.Optional(BandwidthBps),
});
export type EdgeSite = Static<typeof EdgeSite>;

export const EdgeStream = Type.Object({
  id: Type.Integer(),
  ...StreamSettings.properties,
  /** Absent while the stream's package is active (or it has none). */
  enforcement: Type.Optional(StreamEnforcement),
});
export type EdgeStream = Static<typeof EdgeStream>;

export const EdgeCert = Type.Object({
  id: Type.Integer(),
  cert_pem: Type.String({ description: 'leaf then chain, PEM' }),
  key_pem: Type.String(),
});
export type EdgeCert = Static<typeof EdgeCert>;

export const JobType = Type.Union([Type.Literal('purge-url'), Type.Literal('purge-dir'), Type.Literal('prefetch')]);
export type JobType = Static<typeof JobType>;

/** A cache job for this node: URLs are absolute (scheme, a domain of `site_id`, path and query). */
export const EdgeJob = Type.Object({
  id: Type.Integer(),
  type: JobType,
  site_id: Type.Integer(),
  urls: Type.Array(Type.String()),
});
export type EdgeJob = Static<typeof EdgeJob>;

/**
 * An ACME HTTP-01 challenge the edges answer on every HTTP port while an issuance runs:
 * `GET /.well-known/acme-challenge/{token}` → `key_authorization` (RFC 8555 §8.3).
 */
export const EdgeAcmeChallenge = Type.Object({
  token: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'base64url' }),
  key_authorization: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,300}$', description: 'token.thumbprint' }),
});
export type EdgeAcmeChallenge = Static<typeof EdgeAcmeChallenge>;

export const EdgeNodeSettings = Type.Object({
  id: Type.Integer(),
  http_port: Port,
  https_port: Port,
  max_cache_size_mb: Type.Integer({ minimum: 16 }),
});
export type EdgeNodeSettings = Static<typeof EdgeNodeSettings>;

/**
 * What an edge does with a request whose Host no site serves (no Host at all, an IP literal, an
 * unknown name): `page` answers a small page (400 without a Host, 404 otherwise), `close` closes the
 * connection without an answer (nginx's 444).
 */
export const UnknownHostAction = Type.Union([Type.Literal('page'), Type.Literal('close')], {
  description: 'page (a 400 or 404 page) or close (the connection, without an answer)',
});
export type UnknownHostAction = Static<typeof UnknownHostAction>;

/** The node-level treatment of requests no site serves; `waf` is what inspects them (the admin's WAF defaults, or off). */
export const EdgeUnknownHost = Type.Object({
  action: UnknownHostAction,
  waf: SiteProtection.properties.waf,
});
export type EdgeUnknownHost = Static<typeof EdgeUnknownHost>;

export const EdgeSnapshot = Type.Object({
  version: Type.Integer({ minimum: 0 }),
  node: EdgeNodeSettings,
  sites: Type.Array(EdgeSite),
  streams: Type.Array(EdgeStream),
  certs: Type.Array(EdgeCert),
  jobs: Type.Array(EdgeJob),
  acme_challenges: Type.Array(EdgeAcmeChallenge),
  /** Absent from masters without protection: nothing to enforce. */
  protection: Type.Optional(EdgeProtection),
  /** Absent from older masters: the page, without the WAF. */
  unknown_host: Type.Optional(EdgeUnknownHost),
  /** Absent from older masters: the built-in defaults (DEFAULT_EDGE_SETTINGS). */
  edge_settings: Type.Optional(EdgeSettings),
  /** The GeoIP database for country conditions and the log's country, by digest; absent: none. */
  geoip: Type.Optional(EdgeGeoip),
  /** The masters the agent uses from now on (global-0-agent-masters); absent: it keeps its own list. */
  masters: Type.Optional(AgentMasterList),
});
export type EdgeSnapshot = Static<typeof EdgeSnapshot>;
