import {
  checkRedirectRegex,
  DEFAULT_SITE_REDIRECTS,
  type SiteRedirectRule,
  type SiteRedirects,
} from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const rule = (fields: Partial<SiteRedirectRule>): SiteRedirectRule => ({
  match: 'exact',
  value: '/old',
  action: 'redirect',
  status: 301,
  target: '/new',
  keep_query: true,
  ...fields,
});

/**
 * Expressions using every construct of the portable subset, each with a path it matches: PCRE at the
 * edge must compile them and capture what JavaScript captures.
 */
const PORTABLE: [string, string][] = [
  ['^/a/([0-9]+)/(\\w+)\\.html$', '/a/42/page_1.html'],
  ['^/b/(\\d{2,4})-(\\D+?)x$', '/b/2024-news-x'],
  ['^/c/([^/]+)/(?:en|fr)/(.*)$', '/c/shop/fr/rest/of/it'],
  ['^/d/(\\S*)\\s?(.)$', '/d/abc%20z'],
  ['^/e/([a-z.-]{1,})(x{0,3})\\W(?:[A-F0-9]{2})+$', '/e/a.b-cxx~0F1E'],
  ['^/f/(a)(b)(c)(d)(e)(f)(g)(h)(i)$', '/f/abcdefghi'],
  ['^/g/(.*?)(-{2,})?([0-9]*)$', '/g/x--12'],
  ['^/h/\\(\\)\\[\\]\\{\\}\\+\\*\\?\\|\\^\\$\\.(\\w)$', '/h/()%5B%5D%7B%7D+*%3F%7C%5E%24.z'],
];

/** `/to/$1/$2/…` with every group of the expression. */
const portableTarget = (value: string) =>
  `/to${Array.from({ length: checkRedirectRegex(value).groups }, (_, i) => `/$${i + 1}`).join('')}`;

describe('redirects and rewrites, through a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    const site = (id: number, domains: string[], redirects: SiteRedirects | undefined) =>
      makeSite({
        id,
        domains,
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        ...(redirects ? { redirects } : {}),
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [
          site(1, ['shop.test', 'www.shop.test'], {
            host: 'to_www',
            trailing_slash: 'off',
            rules: [
              rule({}),
              rule({ value: '/gone', target: 'https://archive.test/gone', status: 308, keep_query: false }),
              // The first match decides: this prefix comes before the exact rule for /docs/intro.
              rule({ match: 'prefix', value: '/docs/', target: 'https://docs.test/v2/$1', status: 302 }),
              rule({ value: '/docs/intro', target: '/never' }),
              rule({ match: 'regex', value: '^/item/([0-9]+)/(\\w+)$', target: '/p/$2?id=$1', status: 307 }),
              rule({ match: 'prefix', value: '/static/', action: 'rewrite', target: '/assets/$1' }),
              rule({ match: 'regex', value: '^/v1/(.*)$', action: 'rewrite', target: '/api/v1/$1', keep_query: false }),
            ],
          }),
          site(2, ['slash.test'], { ...DEFAULT_SITE_REDIRECTS, trailing_slash: 'add' }),
          site(3, ['www.apex.test', 'apex.test'], {
            ...DEFAULT_SITE_REDIRECTS,
            host: 'to_apex',
            trailing_slash: 'remove',
          }),
          site(4, ['plain.test'], undefined),
          // Protection comes first: an ACL deny is not turned into a redirect.
          makeSite({
            id: 6,
            domains: ['guarded.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
            protection: {
              rule_group_id: null,
              attack_rule_group_id: null,
              under_attack: false,
              whitelist: [],
              waf: { mode: 'off', paranoia: 1, exclusions: [] },
            },
            redirects: {
              ...DEFAULT_SITE_REDIRECTS,
              rules: [rule({ match: 'prefix', value: '/public/', target: '/moved/$1' })],
            },
          }),
          site(5, ['pcre.test'], {
            ...DEFAULT_SITE_REDIRECTS,
            rules: PORTABLE.map(([value]) =>
              rule({ match: 'regex', value, target: portableTarget(value), status: 302 }),
            ),
          }),
        ],
        protection: {
          rule_groups: [],
          acls: [
            {
              site_id: 6,
              entries: [
                {
                  action: 'deny',
                  condition: { field: 'path', op: 'prefix', values: ['/public/secret'], negate: false },
                },
              ],
            },
          ],
          bans: [],
          unbans: [],
        },
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string) => edgeRequest(edge.ports.http, { host, path });
  const originUrl = async (host: string, path: string) => {
    const answer = await get(host, path);
    expect(answer.status, `${host}${path}`).toBe(200);
    return (JSON.parse(answer.body) as { url: string }).url;
  };

  it('redirects by exact path, prefix and expression, with captures and the query kept or not', async () => {
    const moved = await get('www.shop.test', '/old?a=1&b=2');
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toMatch(/^(?:http:\/\/www\.shop\.test(?::\d+)?)?\/new\?a=1&b=2$/);
    const gone = await get('www.shop.test', '/gone?x=1');
    expect([gone.status, gone.headers.location]).toEqual([308, 'https://archive.test/gone']);
    const docs = await get('www.shop.test', '/docs/guide/start.html?lang=en');
    expect([docs.status, docs.headers.location]).toEqual([302, 'https://docs.test/v2/guide/start.html?lang=en']);
    // Rule order: the prefix rule is listed first, so the exact one below it never applies.
    expect((await get('www.shop.test', '/docs/intro')).headers.location).toBe('https://docs.test/v2/intro');
    const item = await get('www.shop.test', '/item/42/blue?ref=mail');
    expect(item.status).toBe(307);
    expect(item.headers.location).toMatch(/\/p\/blue\?id=42&ref=mail$/);
    // Not a match: passed to the origin as it is.
    expect(await originUrl('www.shop.test', '/item/x/blue')).toBe('/item/x/blue');
    expect(await originUrl('www.shop.test', '/older')).toBe('/older');
  });

  it('percent-encodes what a capture brings from the decoded path, so nothing reaches a header raw', async () => {
    const odd = await get('www.shop.test', '/docs/a%20b%0D%0AX-Injected:%201');
    expect(odd.status).toBe(302);
    expect(odd.headers.location).toBe('https://docs.test/v2/a%20b%0D%0AX-Injected%3A%201');
    expect(odd.headers['x-injected']).toBeUndefined();
  });

  it('rewrites the path the origin sees, keeping or dropping the query', async () => {
    expect(await originUrl('www.shop.test', '/static/css/site.css?v=3')).toBe('/assets/css/site.css?v=3');
    expect(await originUrl('www.shop.test', '/v1/users/7?token=x')).toBe('/api/v1/users/7');
  });

  it('moves the apex to www (and back), in one redirect with the path and query', async () => {
    const toWww = await get('shop.test', '/old?a=1');
    expect(toWww.status).toBe(301);
    expect(toWww.headers.location).toBe(`http://www.shop.test:${edge.ports.http}/old?a=1`);
    const toApex = await get('www.apex.test', '/x/?q=1');
    expect(toApex.headers.location).toBe(`http://apex.test:${edge.ports.http}/x/?q=1`);
  });

  it('adds or removes the trailing slash of paths that are not files', async () => {
    const added = await get('slash.test', '/docs?x=1');
    expect([added.status, added.headers.location]).toEqual(
      [301, '/docs/?x=1'].map((v, i) => (i === 0 ? v : expect.stringMatching(/\/docs\/\?x=1$/))),
    );
    expect(await originUrl('slash.test', '/docs/')).toBe('/docs/');
    expect(await originUrl('slash.test', '/file.txt')).toBe('/file.txt');
    expect(await originUrl('slash.test', '/')).toBe('/');
    const removed = await get('apex.test', '/docs/?x=1');
    expect(removed.status).toBe(301);
    expect(removed.headers.location).toMatch(/\/docs\?x=1$/);
    expect(await originUrl('apex.test', '/')).toBe('/');
  });

  it('compiles every construct of the portable expressions in PCRE, capturing what JavaScript does', async () => {
    for (const [value, path] of PORTABLE) {
      const match = new RegExp(value).exec(decodeURIComponent(path));
      expect(match, value).not.toBeNull();
      const groups = checkRedirectRegex(value).groups;
      const expected = Array.from({ length: groups }, (_, i) =>
        encodeURIComponent(match?.[i + 1] ?? '').replaceAll('%2F', '/'),
      );
      const answer = await get('pcre.test', path);
      expect([value, answer.status]).toEqual([value, 302]);
      expect(answer.headers.location?.replace(/^https?:\/\/[^/]+/, ''), value).toBe(`/to/${expected.join('/')}`);
    }
  });

  it('leaves protection first: a request an ACL denies is refused, not redirected', async () => {
    expect((await get('guarded.test', '/public/secret')).status).toBe(403);
    const moved = await get('guarded.test', '/public/x');
    expect([moved.status, moved.headers.location]).toEqual([301, expect.stringMatching(/\/moved\/x$/)]);
  });

  it('does nothing for a site without redirects', async () => {
    expect(await originUrl('plain.test', '/old?a=1')).toBe('/old?a=1');
    expect(await originUrl('plain.test', '/docs')).toBe('/docs');
  });
});
