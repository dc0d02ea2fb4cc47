import { describe, expect, it } from 'vitest';
import { SITES_LOCALES } from '../../features/sites/locales/bundle.ts';
import { ApiError } from '../http/apiError.ts';
import { createI18n } from './i18n.ts';
import { addLocaleBundle } from './localeBundle.ts';
import { COMMON_LOCALES } from './locales/bundle.ts';
import { loadRemoteTranslations, REMOTE_TRANSLATIONS_PATH } from './remoteTranslations.ts';

/** The HTTP client's `post`, answering `data` and keeping what it was called with. */
const remote = (data: unknown) => {
  const calls: unknown[][] = [];
  const post = async <T>(...args: unknown[]): Promise<T> => {
    calls.push(args);
    return data as T;
  };
  return { post, calls };
};

describe('remote translations', () => {
  it('merge over the built-in strings when the call succeeds', async () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US');
    const http = remote({ 'en-US': { common: { backHome: 'Home, please' } }, 'zh-CN': 'not a tree' });
    await expect(loadRemoteTranslations(http, i18n)).resolves.toBe(true);
    expect(http.calls).toEqual([
      [REMOTE_TRANSLATIONS_PATH, { languages: ['zh-CN', 'en-US'] }, expect.objectContaining({ silent: true })],
    ]);
    expect(i18n.t('common.backHome')).toBe('Home, please');
    expect(i18n.t('common.language')).toBe('Language');
  });

  it('leave the built-in strings alone when the call fails', async () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US');
    const post = async <T>(): Promise<T> => {
      throw new ApiError('404', 'missing', 404, REMOTE_TRANSLATIONS_PATH);
    };
    await expect(loadRemoteTranslations({ post }, i18n)).resolves.toBe(false);
    expect(i18n.t('common.backHome')).toBe('Back to home');
  });

  it('keep winning over a feature bundle that loads after them', async () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US');
    await loadRemoteTranslations(remote({ 'en-US': { sites: { list: { add: 'New site' } } } }), i18n);
    addLocaleBundle(i18n, SITES_LOCALES);
    expect(i18n.t('sites.list.add')).toBe('New site');
    expect(i18n.t('sites.list.search')).toBe('Search by domain');
  });

  it('win over a feature bundle that loaded before them', async () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US', [SITES_LOCALES]);
    await loadRemoteTranslations(remote({ 'en-US': { sites: { list: { add: 'New site' } } } }), i18n);
    expect(i18n.t('sites.list.add')).toBe('New site');
    expect(i18n.t('sites.list.search')).toBe('Search by domain');
  });
});
