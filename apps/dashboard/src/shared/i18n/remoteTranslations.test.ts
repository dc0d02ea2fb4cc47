import { describe, expect, it, vi } from 'vitest';
import { TRANSLATIONS } from '../../app/translations.ts';
import { ApiError } from '../http/apiError.ts';
import { createI18n } from './i18n.ts';
import { loadRemoteTranslations, REMOTE_TRANSLATIONS_PATH } from './remoteTranslations.ts';

describe('remote translations', () => {
  it('merge over the built-in strings when the call succeeds', async () => {
    const i18n = createI18n(TRANSLATIONS, 'en-US');
    const post = vi.fn(async () => ({ 'en-US': { common: { backHome: 'Home, please' } }, 'zh-CN': 'not a tree' }));
    await expect(loadRemoteTranslations({ post } as never, i18n)).resolves.toBe(true);
    expect(post).toHaveBeenCalledWith(
      REMOTE_TRANSLATIONS_PATH,
      { languages: ['zh-CN', 'en-US'] },
      expect.objectContaining({ silent: true }),
    );
    expect(i18n.t('common.backHome')).toBe('Home, please');
    expect(i18n.t('common.language')).toBe('Language');
  });

  it('leave the built-in strings alone when the call fails', async () => {
    const i18n = createI18n(TRANSLATIONS, 'en-US');
    const post = vi.fn(async () => {
      throw new ApiError('404', 'missing', 404, REMOTE_TRANSLATIONS_PATH);
    });
    await expect(loadRemoteTranslations({ post } as never, i18n)).resolves.toBe(false);
    expect(i18n.t('common.backHome')).toBe('Back to home');
  });
});
