import { type Static, Type } from 'typebox';

/**
 * Redirects and rewrites: an ordered list of rules, the first whose match fits the request's path
 * (decoded and normalised, without the query) decides, plus two common switches.
 * - match `exact`: the path is `value`; `prefix`: the path starts with `value`, and `$1` in the
 *   target is the rest of the path after it; `regex`: a regular expression of the portable subset
 *   (see redirect-regex.ts), `$1`…`$9` its groups.
 * - action `redirect`: answers `status` with a Location of `target` (an http(s) URL, or a path on
 *   the same host), the visitor's query appended when `keep_query`; `rewrite`: the origin (and the
 *   rest of the request's handling) sees `target`, a path, in place of the visitor's path.
 * - `host`: `to_www` sends `example.com` to `www.example.com` and `to_apex` the other way, for the
 *   site's domains whose twin is also one of them; `trailing_slash`: `add` sends `/docs` to `/docs/`
 *   (a last segment without a dot: not a file), `remove` sends `/docs/` to `/docs`. Both answer 301.
 */
export const RedirectMatch = Type.Union([Type.Literal('prefix'), Type.Literal('exact'), Type.Literal('regex')], {
  description: 'prefix, exact or regex',
});
export type RedirectMatch = Static<typeof RedirectMatch>;

export const RedirectAction = Type.Union([Type.Literal('redirect'), Type.Literal('rewrite')], {
  description: 'redirect (answer with a Location) or rewrite (change the path sent to the origin)',
});
export type RedirectAction = Static<typeof RedirectAction>;

export const RedirectStatus = Type.Union([Type.Literal(301), Type.Literal(302), Type.Literal(307), Type.Literal(308)], {
  description: '301, 302, 307 or 308',
});
export type RedirectStatus = Static<typeof RedirectStatus>;

export const REDIRECT_MAX_RULES = 100;
export const REDIRECT_REGEX_MAX_LENGTH = 256;
export const REDIRECT_TARGET_MAX_LENGTH = 2048;

/** A path to match: `/` then letters, digits and `- . _ ~ ! & ( ) * + , = : @ % / [ ]`. */
export const REDIRECT_PATH_PATTERN = '^/[A-Za-z0-9._~!&()*+,=:@%/\\[\\]-]{0,1023}$';
/**
 * A target: an http(s) URL or a path, of letters, digits and `- . _ ~ ! & ( ) * + , = : @ % / ? [ ]`,
 * and `$` before a digit (a capture).
 */
export const REDIRECT_TARGET_PATTERN =
  '^(?:https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~!&()*+,=:@%/?\\[\\]$-]*)?|/[A-Za-z0-9._~!&()*+,=:@%/?\\[\\]$-]*)$';

export const SiteRedirectRule = Type.Object(
  {
    match: RedirectMatch,
    /** A path for prefix and exact; the expression for regex. */
    value: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: `a path (/…) for prefix and exact; a regular expression of up to ${REDIRECT_REGEX_MAX_LENGTH} characters for regex`,
    }),
    action: RedirectAction,
    status: RedirectStatus,
    target: Type.String({
      minLength: 1,
      maxLength: REDIRECT_TARGET_MAX_LENGTH,
      pattern: REDIRECT_TARGET_PATTERN,
      description:
        'redirect: an http(s) URL or a path; rewrite: a path; $1 to $9 are the captures (for prefix, $1 is the rest of the path)',
    }),
    keep_query: Type.Boolean({ description: "whether the visitor's query string is kept (appended to the target)" }),
  },
  { additionalProperties: false },
);
export type SiteRedirectRule = Static<typeof SiteRedirectRule>;

export const RedirectHost = Type.Union([Type.Literal('off'), Type.Literal('to_www'), Type.Literal('to_apex')], {
  description: 'off, to_www (example.com → www.example.com) or to_apex (www.example.com → example.com)',
});
export type RedirectHost = Static<typeof RedirectHost>;

export const RedirectTrailingSlash = Type.Union([Type.Literal('off'), Type.Literal('add'), Type.Literal('remove')], {
  description: 'off, add (/docs → /docs/) or remove (/docs/ → /docs)',
});
export type RedirectTrailingSlash = Static<typeof RedirectTrailingSlash>;

export const SiteRedirects = Type.Object(
  {
    rules: Type.Array(SiteRedirectRule, {
      maxItems: REDIRECT_MAX_RULES,
      description: `at most ${REDIRECT_MAX_RULES} rules, the first that matches decides`,
    }),
    host: RedirectHost,
    trailing_slash: RedirectTrailingSlash,
  },
  { additionalProperties: false },
);
export type SiteRedirects = Static<typeof SiteRedirects>;

/** A site that never set it: no rules, both switches off. */
export const DEFAULT_SITE_REDIRECTS: SiteRedirects = { rules: [], host: 'off', trailing_slash: 'off' };

/** Whether a site's redirects do anything (a package feature, and whether the edge gets them). */
export const redirectsInUse = (redirects: SiteRedirects | undefined): boolean =>
  redirects !== undefined &&
  (redirects.rules.length > 0 || redirects.host !== 'off' || redirects.trailing_slash !== 'off');
