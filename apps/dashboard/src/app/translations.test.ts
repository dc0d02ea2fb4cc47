import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { flattenKeys } from '../shared/i18n/flattenKeys.ts';
import { createI18n } from '../shared/i18n/i18n.ts';
import { TRANSLATIONS } from './translations.ts';

const allRecords = (records: readonly RouteRecord[]): RouteRecord[] =>
  records.flatMap((record) => [record, ...allRecords(record.children ?? [])]);

describe('translations', () => {
  it('have the same keys in zh-CN and en-US', () => {
    const zh = flattenKeys(TRANSLATIONS['zh-CN']);
    const en = flattenKeys(TRANSLATIONS['en-US']);
    expect(
      zh.filter((key) => !en.includes(key)),
      'only in zh-CN',
    ).toEqual([]);
    expect(
      en.filter((key) => !zh.includes(key)),
      'only in en-US',
    ).toEqual([]);
  });

  it('have no empty strings', () => {
    for (const language of ['zh-CN', 'en-US'] as const) {
      const i18n = createI18n(TRANSLATIONS, language);
      const empty = flattenKeys(TRANSLATIONS[language]).filter((key) => i18n.t(key).trim() === '');
      expect(empty, language).toEqual([]);
    }
  });

  it('have a title for every route of ROUTES and every public page', () => {
    const en = flattenKeys(TRANSLATIONS['en-US']);
    const titles = [
      ...allRecords(ROUTES).map((record) => record.title),
      ...['login', 'register', 'forget-password', '403', '404', '500'].map((name) => `route.${name}`),
    ];
    expect(titles.filter((title) => !en.includes(title))).toEqual([]);
  });
});
