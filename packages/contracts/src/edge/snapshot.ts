import { type Static, Type } from 'typebox';
import { Port } from './fields.ts';
import { EdgeProtection } from './protection.ts';
import { SiteSettings } from './site.ts';
import { StreamSettings } from './stream.ts';

/**
 * What an agent renders: the whole configuration for one node at one config version. The agent
 * validates every site and stream again with these schemas and skips (and reports) what fails.
 */
export const EdgeSite = Type.Object({ id: Type.Integer(), ...SiteSettings.properties });
export type EdgeSite = Static<typeof EdgeSite>;

export const EdgeStream = Type.Object({ id: Type.Integer(), ...StreamSettings.properties });
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
});
export type EdgeSnapshot = Static<typeof EdgeSnapshot>;
