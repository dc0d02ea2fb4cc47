import { type Static, Type } from 'typebox';
import { Domain, FileExtension } from './fields.ts';

/**
 * Hotlink protection: which pages may embed or link a site's files, told by the Referer's host.
 * A request for one of `extensions` is refused when its Referer names a host in `deny`, or a host
 * that is neither one of the site's own domains nor in `allow` while `allow` lists any; a request
 * without a Referer (typed in, a privacy setting, an app) passes only with `allow_empty`.
 */
export const HotlinkAction = Type.Union([Type.Literal('forbid'), Type.Literal('redirect')], {
  description: 'forbid (403) or redirect (302 to redirect_url)',
});
export type HotlinkAction = Static<typeof HotlinkAction>;

export const HOTLINK_MAX_HOSTS = 100;
export const HOTLINK_MAX_EXTENSIONS = 64;

/** http(s) URL of printable ASCII without quotes, spaces, \ { } ; $ # or `. */
export const HOTLINK_REDIRECT_PATTERN = '^https?://[A-Za-z0-9._~:/?\\[\\]@!&()*+,=%-]{1,2040}$';

export const SiteHotlink = Type.Object(
  {
    enabled: Type.Boolean(),
    /** Referer hosts allowed besides the site's own domains; `*.example.com` is every name under it and itself. */
    allow: Type.Array(Domain, {
      maxItems: HOTLINK_MAX_HOSTS,
      uniqueItems: true,
      description: `at most ${HOTLINK_MAX_HOSTS} referer hosts (example.com or *.example.com); empty: every host not denied`,
    }),
    deny: Type.Array(Domain, {
      maxItems: HOTLINK_MAX_HOSTS,
      uniqueItems: true,
      description: `at most ${HOTLINK_MAX_HOSTS} referer hosts (example.com or *.example.com) always refused`,
    }),
    allow_empty: Type.Boolean({ description: 'whether a request without a Referer header passes' }),
    extensions: Type.Array(FileExtension, {
      minItems: 1,
      maxItems: HOTLINK_MAX_EXTENSIONS,
      uniqueItems: true,
      description: `1 to ${HOTLINK_MAX_EXTENSIONS} file extensions (without the dot) the protection covers`,
    }),
    action: HotlinkAction,
    redirect_url: Type.String({
      pattern: `(?:^$)|(?:${HOTLINK_REDIRECT_PATTERN})`,
      description: 'empty, or the http(s) URL a refused request is redirected to (required for redirect)',
    }),
  },
  { additionalProperties: false },
);
export type SiteHotlink = Static<typeof SiteHotlink>;

/** A site that never set it: off, with the usual embeddable file types ready. */
export const DEFAULT_SITE_HOTLINK: SiteHotlink = {
  enabled: false,
  allow: [],
  deny: [],
  allow_empty: true,
  extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'ico', 'mp4', 'webm', 'mp3', 'pdf', 'zip'],
  action: 'forbid',
  redirect_url: '',
};
