import { DEFAULT_SITE_REDIRECTS, type SiteRedirects } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { siteFieldPath } from '../sitePayload.ts';
import { hasWwwPair, redirectsBody, redirectsValues } from './redirectValues.ts';

const STORED: SiteRedirects = {
  rules: [{ match: 'prefix', value: '/old/', action: 'redirect', status: 301, target: '/new/$1', keep_query: true }],
  host: 'to_www',
  trailing_slash: 'off',
};

describe('redirect values', () => {
  it('reads a site that never set them as none, and writes that back unchanged', () => {
    expect(redirectsValues(undefined)).toEqual(DEFAULT_SITE_REDIRECTS);
    expect(redirectsBody(redirectsValues(undefined))).toEqual(DEFAULT_SITE_REDIRECTS);
  });

  it('edits a copy of the stored rules, and sends paths without the spaces around them', () => {
    const values = redirectsValues(STORED);
    const rule = values.rules[0];
    if (!rule) throw new Error('no rule');
    rule.value = ' /older/ ';
    rule.target = ' https://www.example.com/$1 ';
    expect(STORED.rules[0]?.value).toBe('/old/');
    expect(redirectsBody(values).rules).toEqual([
      { ...STORED.rules[0], value: '/older/', target: 'https://www.example.com/$1' },
    ]);
  });

  it('maps the server’s redirect field names onto the section’s fields', () => {
    expect(siteFieldPath(['redirects', 'rules', 2, 'value'])).toEqual(['redirects', 'rules', 2, 'value']);
    expect(siteFieldPath(['redirects', 'rules', 0, 'target'])).toEqual(['redirects', 'rules', 0, 'target']);
    expect(siteFieldPath(['redirects', 'rules', 1])).toEqual(['redirects', 'rules', 1, 'value']);
    expect(siteFieldPath(['redirects', 'host'])).toEqual(['redirects', 'host']);
    expect(siteFieldPath(['redirects', 'rules'])).toEqual([]);
    expect(siteFieldPath(['redirects'])).toEqual([]);
  });

  it('knows when the site has a domain and its www. name both', () => {
    expect(hasWwwPair(['Example.com', 'www.example.com'])).toBe(true);
    expect(hasWwwPair(['example.com', 'www.example.org'])).toBe(false);
    expect(hasWwwPair(['*.example.com', 'www.*.example.com'])).toBe(false);
  });
});
