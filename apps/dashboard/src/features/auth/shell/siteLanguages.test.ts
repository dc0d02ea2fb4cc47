import { describe, expect, it } from 'vitest';
import { pickableLanguages, siteLanguageFor } from './siteLanguages.ts';

describe('the languages of the sign-in pages', () => {
  it('are those /sys/setting allows, or every language until they are known', () => {
    expect(pickableLanguages(['en-US']).map(({ code }) => code)).toEqual(['en-US']);
    expect(pickableLanguages(undefined).map(({ code }) => code)).toEqual(['zh-CN', 'en-US']);
    expect(pickableLanguages(['fr-FR']).map(({ code }) => code)).toEqual(['zh-CN', 'en-US']);
  });

  it('start in the site’s default language only for a visitor nothing else decided for', () => {
    const site = { default_language: 'en-US', languages: ['zh-CN', 'en-US'] };
    const visitor = { stored: null, browserLanguages: ['de-DE'], current: 'zh-CN' };
    expect(siteLanguageFor(visitor, site)).toBe('en-US');
    expect(siteLanguageFor({ ...visitor, stored: 'zh-CN' }, site)).toBeNull();
    expect(siteLanguageFor({ ...visitor, browserLanguages: ['zh-TW'] }, site)).toBeNull();
    expect(siteLanguageFor({ ...visitor, current: 'en-US' }, site)).toBeNull();
    // A language the site no longer offers gives way to the default.
    expect(siteLanguageFor({ ...visitor, browserLanguages: ['zh-CN'] }, { ...site, languages: ['en-US'] })).toBe(
      'en-US',
    );
    expect(siteLanguageFor(visitor, null)).toBeNull();
  });
});
