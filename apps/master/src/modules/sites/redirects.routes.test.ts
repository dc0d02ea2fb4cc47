import { DEFAULT_SITE_REDIRECTS, type SiteRedirectRule } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';
import { sharedPart } from '../agent/snapshot.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
const site = { domains: ['example.com', 'www.example.com', '*.cdn.example.com'], origins: [origin] };
const rule = (fields: Partial<SiteRedirectRule>): SiteRedirectRule => ({
  match: 'exact',
  value: '/old',
  action: 'redirect',
  status: 301,
  target: '/new',
  keep_query: true,
  ...fields,
});
const withRules = (...rules: SiteRedirectRule[]) => ({ ...DEFAULT_SITE_REDIRECTS, rules });

describe.each(DIALECTS)('a site’s redirects and rewrites on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const create = (redirects: unknown, domains = site.domains) =>
    test.call('POST', '/v1/sites', { token: alice, body: { ...site, domains, redirects } });

  it('has none on a site that never set them, and stores, shows and sends them to the edges once set', async () => {
    const plain = await test.call('POST', '/v1/sites', { token: alice, body: { ...site, domains: ['a.example.net'] } });
    expect((plain.body.data as { redirects: unknown }).redirects).toEqual(DEFAULT_SITE_REDIRECTS);
    const id = (plain.body.data as { id: number }).id;
    const before = await currentConfigVersion(test.database.db);
    const redirects = {
      rules: [
        rule({
          match: 'regex',
          value: '^/blog/([0-9]+)/(.*)$',
          target: 'https://blog.example.org/$2?id=$1',
          status: 308,
        }),
        rule({ match: 'prefix', value: '/static/', action: 'rewrite', target: '/assets/$1', keep_query: false }),
      ],
      host: 'off',
      trailing_slash: 'add',
    };
    const saved = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { redirects } });
    expect(saved.body).toMatchObject({ code: 0, data: { redirects } });
    expect((await test.call('GET', `/v1/sites/${id}`, { token: alice })).body).toMatchObject({ data: { redirects } });
    const version = await currentConfigVersion(test.database.db);
    expect(version).toBe(before + 1);
    const shared = JSON.parse(`{${(await sharedPart(test.database.db, version)).json}}`) as {
      sites: { id: number; redirects?: unknown }[];
    };
    expect(shared.sites.find((entry) => entry.id === id)?.redirects).toEqual(redirects);
  });

  it('names the field and the rule when a setting cannot work, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [
        withRules(rule({ value: 'old' })),
        'redirects/rules/0/value: a path starting with /, then letters, digits and - . _ ~ ! & ( ) * + , = : @ % / [ ]',
      ],
      [
        withRules(rule({ match: 'regex', value: '^/(a+)+$' })),
        'redirects/rules/0/value: a group repeated by *, + or {n,} must not itself hold *, + or {n,} (it could backtrack without end) at character 3',
      ],
      [
        withRules(rule({ match: 'regex', value: '^/(?=a)' })),
        'redirects/rules/0/value: only (?:…) groups: no lookaround, names or flags at character 3',
      ],
      [withRules(rule({ target: '/new/$1' })), 'redirects/rules/0/target: $1: an exact match has no captures'],
      [
        withRules(rule({ match: 'prefix', value: '/a/', target: '/b/$2' })),
        'redirects/rules/0/target: $2: a prefix match has only $1 (the rest of the path)',
      ],
      [
        withRules(rule({ match: 'regex', value: '^/a/(.*)$', target: '/b/$2' })),
        'redirects/rules/0/target: $2: the expression has 1 group',
      ],
      [withRules(rule({ target: '/new/$x' })), 'redirects/rules/0/target: $ only as a capture, $1 to $9'],
      [
        withRules(rule({ action: 'rewrite', target: 'https://example.org/' })),
        'redirects/rules/0/target: a rewrite needs a path starting with /',
      ],
      [
        withRules(rule({ action: 'rewrite', target: '/new?x=1' })),
        'redirects/rules/0/target: a rewrite changes the path only: no ? in it',
      ],
      [
        withRules(rule({}), rule({ target: '/other' })),
        'redirects/rules/1/value: the same as redirects/rules/0, which always matches first',
      ],
      [
        withRules(rule({ target: '/old' })),
        'redirects/rules/0/target: /old is matched by this rule again: the redirect would loop',
      ],
      [
        withRules(rule({ target: 'https://www.example.com/old?from=a' })),
        'redirects/rules/0/target: /old is matched by this rule again: the redirect would loop',
      ],
      [
        withRules(rule({}), rule({ value: '/new', target: '/old' })),
        'redirects/rules/0/target: /new → /old → /new: the redirects would loop',
      ],
      [
        { ...withRules(rule({ value: '/docs/', target: '/docs' })), trailing_slash: 'add' },
        'redirects/rules/0/target: /docs → /docs/ → /docs: the redirects would loop',
      ],
      [
        withRules(rule({ match: 'prefix', value: '/a', target: '/a/x$1' })),
        'redirects/rules/0/target: every target starts with /a, which this rule matches again: the redirect would loop',
      ],
      [
        withRules(rule({ match: 'regex', value: '^/shop/.*$', target: 'https://x.cdn.example.com/shop/all' })),
        'redirects/rules/0/target: /shop/all is matched by this rule again: the redirect would loop',
      ],
    ];
    for (const [redirects, msg] of cases) {
      expect((await create(redirects)).body, JSON.stringify(redirects)).toMatchObject({ code: 'invalid_param', msg });
    }
    expect(
      (await create({ ...DEFAULT_SITE_REDIRECTS, host: 'to_www' }, ['example.com', 'shop.example.com'])).body,
    ).toMatchObject({
      code: 'invalid_param',
      msg: 'redirects/host: to_www needs a domain and its www. name both on the site (say example.com and www.example.com)',
    });
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
    // Elsewhere, or away from what the rule matches, is fine; so is a rewrite onto its own path.
    const fine = withRules(
      rule({ target: 'https://example.org/old' }),
      rule({ match: 'prefix', value: '/a/', target: '/b/$1' }),
      rule({ match: 'regex', value: '^/x/(\\d+)$', action: 'rewrite', target: '/x/$1' }),
    );
    expect((await create({ ...fine, host: 'to_www', trailing_slash: 'remove' })).body.code).toBe(0);
  });

  it('refuses hostile values in every field that reaches the edge', async () => {
    const fields: ((value: string) => unknown)[] = [
      (v) => withRules(rule({ value: `/a${v}` })),
      (v) => withRules(rule({ match: 'prefix', value: `/a${v}` })),
      (v) => withRules(rule({ target: `/a${v}` })),
      (v) => withRules(rule({ target: `https://example.org/${v}` })),
      (v) => withRules(rule({ action: 'rewrite', target: `/a${v}` })),
    ];
    for (const field of fields) {
      for (const value of HOSTILE_VALUES) {
        const result = await create(field(value));
        expect(result.body.code, JSON.stringify(field(value))).toBe('invalid_param');
      }
    }
    for (const value of ['^/a\r\n', '^/a\u0000', '^/é']) {
      expect((await create(withRules(rule({ match: 'regex', value })))).body.code).toBe('invalid_param');
    }
    expect((await create({ ...DEFAULT_SITE_REDIRECTS, host: 'both' })).body.code).toBe('invalid_param');
    expect((await create(withRules(rule({ status: 303 as 301 })))).body.code).toBe('invalid_param');
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
  });
});
