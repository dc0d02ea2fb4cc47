import { DEFAULT_SITE_REDIRECTS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { literalPrefix, redirectRoute, requiredLiteral, targetParts } from './redirect-route.ts';

describe('a site’s redirects as the router reads them', () => {
  it('splits targets at their captures', () => {
    expect(targetParts('/a/$1?x=$2')).toEqual(['/a/', 1, '?x=', 2]);
    expect(targetParts('$1')).toEqual([1]);
    expect(targetParts('https://x.example/$9$1')).toEqual(['https://x.example/', 9, 1]);
    expect(targetParts('/plain')).toEqual(['/plain']);
  });

  it.each([
    ['^/item/([0-9]+)$', '/item/'],
    ['^/items?/x', '/item'],
    ['^/a\\.b\\-c/(x)', '/a.b-c/'],
    ['^/ab*c', '/a'],
    ['^/ab+c', '/ab'],
    ['^/a{2}', '/'],
    ['^/\\d+', '/'],
    ['^/(?:en|fr)/legacy/(.*)$', '/'],
    ['^/a|^/b', ''],
    ['/item/(\\d+)', ''],
    ['^[a-z]/x', ''],
  ])('takes the literal start of %s as %j', (source, prefix) => {
    expect(literalPrefix(source)).toBe(prefix);
    // Every string the expression matches starts with it.
    for (const sample of ['/item/12', '/items/x', '/a.b-c/x', '/abbc', '/ac', '/aa', '/12', '/en/legacy/x', '/b']) {
      if (new RegExp(source).test(sample)) expect(sample.startsWith(prefix), `${source} ${sample}`).toBe(true);
    }
  });

  it.each([
    ['^/(?:en|fr)/legacy/(.*)$', '/legacy/'],
    ['^/item/([0-9]+)$', '/item/'],
    ['(a|b)/shop/x?y', '/shop/'],
    ['\\.php$', '.php'],
    ['^/a|/b/c', ''],
    ['^/[a/b/c]+/x', '/x'],
    ['^/(?:abc)+', ''],
    ['^/ab+cd', '/ab'],
  ])('takes the literal text every match of %s holds as %j', (source, literal) => {
    expect(requiredLiteral(source)).toBe(literal);
    for (const sample of [
      '/en/legacy/x',
      '/item/7',
      'a/shop/y',
      'b/shop/xy',
      '/x.php',
      '/a',
      '/b/c',
      '/abcd',
      '/abbcd',
      '/abc',
    ]) {
      if (new RegExp(source).test(sample)) expect(sample.includes(literal), `${source} ${sample}`).toBe(true);
    }
  });

  it('leaves a site without rules or switches out, and maps the host switch to the names that move', () => {
    expect(redirectRoute(undefined, ['a.example'])).toBeUndefined();
    expect(redirectRoute(DEFAULT_SITE_REDIRECTS, ['a.example'])).toBeUndefined();
    expect(
      redirectRoute({ ...DEFAULT_SITE_REDIRECTS, host: 'to_www' }, [
        'example.com',
        'www.example.com',
        'shop.example.com',
        '*.example.net',
      ]),
    ).toEqual({ rules: [], hosts: { 'example.com': 'www.example.com' } });
    expect(
      redirectRoute({ ...DEFAULT_SITE_REDIRECTS, host: 'to_apex', trailing_slash: 'remove' }, [
        'example.com',
        'www.example.com',
      ]),
    ).toEqual({ rules: [], hosts: { 'www.example.com': 'example.com' }, slash: 'remove' });
  });

  it('refuses what the master would have refused', () => {
    const rule = {
      match: 'regex',
      value: '^/(a+)+$',
      action: 'redirect',
      status: 301,
      target: '/x',
      keep_query: true,
    } as const;
    expect(() => redirectRoute({ ...DEFAULT_SITE_REDIRECTS, rules: [rule] }, ['a.example'])).toThrow(
      /redirects\.rules\[0\]\.value/,
    );
    expect(() =>
      redirectRoute({ ...DEFAULT_SITE_REDIRECTS, rules: [{ ...rule, value: '^/(a)$', target: '/x/$2' }] }, [
        'a.example',
      ]),
    ).toThrow(/redirects\.rules\[0\]\.target/);
    expect(() =>
      redirectRoute({ ...DEFAULT_SITE_REDIRECTS, rules: [{ ...rule, value: '^/a$', target: '/x\r\nX: 1' }] }, [
        'a.example',
      ]),
    ).toThrow(/redirects\.rules\[0\]\.target/);
    expect(() =>
      redirectRoute(
        {
          ...DEFAULT_SITE_REDIRECTS,
          rules: [{ ...rule, value: '^/a$', action: 'rewrite', target: 'https://x.example/' }],
        },
        ['a.example'],
      ),
    ).toThrow(/redirects\.rules\[0\]\.target/);
  });
});
