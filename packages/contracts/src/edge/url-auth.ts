import { type Static, Type } from 'typebox';
import { FileExtension, PathPrefix } from './fields.ts';

/**
 * Signed URLs (URL authentication), the three schemes CDNs offer. `ts` is the Unix time of signing
 * and a URL is good until `ts + ttl`; `md5` is the lower-case hex MD5 of the given string.
 * - a: `/path?auth_key=<ts>-<rand>-<uid>-<md5>`, md5 of `/path-<ts>-<rand>-<uid>-<key>` (rand and uid:
 *   letters and digits, `0` when unused); the edge takes `auth_key` off before the cache and the origin.
 * - b: `/<YYYYMMDDHHMM>/<md5>/path`, the time in UTC, md5 of `<key><YYYYMMDDHHMM>/path`.
 * - c: `/<md5>/<ts in hex>/path`, md5 of `<key>/path<ts in hex>`.
 * b and c take their prefix off before the cache key and the origin: all signatures of a file share
 * one cache entry.
 */
export const UrlAuthType = Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Literal('c')], {
  description: 'a (?auth_key=), b (/YYYYMMDDHHMM/md5/path) or c (/md5/hex-time/path)',
});
export type UrlAuthType = Static<typeof UrlAuthType>;

export const URL_AUTH_KEY_PATTERN = '^[A-Za-z0-9]{16,64}$';
export const URL_AUTH_MAX_TTL = 31_536_000;
export const URL_AUTH_MAX_SCOPE = 64;

const Key = (what: string) =>
  Type.String({
    pattern: `(?:^$)|(?:${URL_AUTH_KEY_PATTERN})`,
    description: `${what}: 16 to 64 letters or digits (empty: none)`,
  });

export const SiteUrlAuth = Type.Object(
  {
    enabled: Type.Boolean(),
    type: UrlAuthType,
    key: Key('the primary key'),
    /** Also accepted, so a key can be rotated without breaking the URLs already handed out. */
    backup_key: Key('the backup key'),
    ttl: Type.Integer({
      minimum: 1,
      maximum: URL_AUTH_MAX_TTL,
      description: `seconds a signed URL stays good, 1 to ${URL_AUTH_MAX_TTL}`,
    }),
    /** Where a signature is needed: requests under one of `paths` or ending in one of `extensions`; both empty: every request. */
    paths: Type.Array(PathPrefix, { maxItems: URL_AUTH_MAX_SCOPE, uniqueItems: true }),
    extensions: Type.Array(FileExtension, { maxItems: URL_AUTH_MAX_SCOPE, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type SiteUrlAuth = Static<typeof SiteUrlAuth>;

/** A site that never set it: off. */
export const DEFAULT_SITE_URL_AUTH: SiteUrlAuth = {
  enabled: false,
  type: 'a',
  key: '',
  backup_key: '',
  ttl: 1800,
  paths: [],
  extensions: [],
};
