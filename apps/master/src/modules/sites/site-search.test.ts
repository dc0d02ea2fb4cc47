import { describe, expect, it } from 'vitest';
import { containsPattern, MAX_SEARCH_GRAMS, searchGrams, searchNeedle, siteGrams } from './site-search.ts';

describe('site search grams', () => {
  it('indexes every distinct lowercase 3-character substring of all of a site’s domains', () => {
    expect(siteGrams(['ab.cd', 'AB.X'])).toEqual(['ab.', 'b.c', '.cd', 'b.x']);
    expect(siteGrams(['*.a.io'])).toEqual(['*.a', '.a.', 'a.i', '.io']);
  });

  it('indexes nothing for domains shorter than a gram', () => {
    expect(siteGrams(['ab'])).toEqual([]);
  });

  it('looks up all grams of a short term, lowercased', () => {
    expect(searchGrams(searchNeedle('S4242'))).toEqual(['s42', '424', '242']);
    expect(searchGrams('ab')).toEqual([]);
  });

  it('spreads a long term’s lookups from its first gram to its last', () => {
    const needle = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const grams = searchGrams(needle);
    expect(grams).toHaveLength(MAX_SEARCH_GRAMS);
    expect(grams[0]).toBe('abc');
    expect(grams.at(-1)).toBe('789');
    expect(new Set(grams).size).toBe(MAX_SEARCH_GRAMS);
  });

  it('escapes LIKE wildcards so a term matches only itself', () => {
    expect(containsPattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
  });
});
