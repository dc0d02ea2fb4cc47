import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { flattenKeys } from '../shared/i18n/flattenKeys.ts';
import { createI18n } from '../shared/i18n/i18n.ts';
import type { LocaleBundle } from '../shared/i18n/localeBundle.ts';
import { COMMON_LOCALES } from '../shared/i18n/locales/bundle.ts';
import type { LocaleTree } from '../shared/i18n/translations.ts';

// Every locale folder of the app, found rather than listed: a new feature's strings are checked too.
const LOCALE_FILES = import.meta.glob<Record<string, LocaleTree>>('../**/locales/{zh-CN,en-US}.ts', { eager: true });
const BUNDLE_FILES = import.meta.glob<Record<string, LocaleBundle>>('../**/locales/bundle.ts', { eager: true });

const onlyExport = <T>(module: Record<string, T>, path: string): T => {
  const values = Object.values(module);
  if (values.length !== 1 || values[0] === undefined) throw new Error(`${path} should export one thing`);
  return values[0];
};

const folders = [...new Set(Object.keys(LOCALE_FILES).map((path) => path.replace(/\/[^/]+$/, '')))].sort();
const treeOf = (folder: string, language: 'zh-CN' | 'en-US'): LocaleTree | undefined => {
  const module = LOCALE_FILES[`${folder}/${language}.ts`];
  return module && onlyExport(module, `${folder}/${language}.ts`);
};
const bundleOf = (folder: string): LocaleBundle | undefined => {
  const module = BUNDLE_FILES[`${folder}/bundle.ts`];
  return module && onlyExport(module, `${folder}/bundle.ts`);
};
const bundles = folders.map(bundleOf).filter((bundle) => bundle !== undefined);

const allRecords = (records: readonly RouteRecord[]): RouteRecord[] =>
  records.flatMap((record) => [record, ...allRecords(record.children ?? [])]);

describe('locale files', () => {
  it('exist in zh-CN and en-US for every folder, with the same keys', () => {
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) {
      const zh = flattenKeys(treeOf(folder, 'zh-CN') ?? {});
      const en = flattenKeys(treeOf(folder, 'en-US') ?? {});
      expect(zh.length, `${folder} has strings`).toBeGreaterThan(0);
      expect(
        zh.filter((key) => !en.includes(key)),
        `${folder}: only in zh-CN`,
      ).toEqual([]);
      expect(
        en.filter((key) => !zh.includes(key)),
        `${folder}: only in en-US`,
      ).toEqual([]);
    }
  });

  it('each reach i18next through their folder’s bundle', () => {
    for (const folder of folders) {
      const bundle = bundleOf(folder);
      expect(bundle?.['zh-CN'], `${folder}/bundle.ts`).toBe(treeOf(folder, 'zh-CN'));
      expect(bundle?.['en-US'], `${folder}/bundle.ts`).toBe(treeOf(folder, 'en-US'));
    }
  });

  it('define each key in one bundle only (a later bundle never replaces a string)', () => {
    const keys = bundles.flatMap((bundle) => flattenKeys(bundle['en-US']));
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('have no empty strings', () => {
    for (const language of ['zh-CN', 'en-US'] as const) {
      const i18n = createI18n(COMMON_LOCALES, language, bundles);
      const keys = bundles.flatMap((bundle) => flattenKeys(bundle[language]));
      expect(
        keys.filter((key) => i18n.t(key).trim() === ''),
        language,
      ).toEqual([]);
    }
  });

  it('have a title for every route of ROUTES, and the public pages’ titles from the start', () => {
    const all = bundles.flatMap((bundle) => flattenKeys(bundle['en-US']));
    const common = flattenKeys(COMMON_LOCALES['en-US']);
    const publicTitles = ['login', 'register', 'forget-password', '403', '404', '500'].map((name) => `route.${name}`);
    expect(allRecords(ROUTES).filter((record) => !all.includes(record.title))).toEqual([]);
    expect(publicTitles.filter((title) => !common.includes(title))).toEqual([]);
  });
});
