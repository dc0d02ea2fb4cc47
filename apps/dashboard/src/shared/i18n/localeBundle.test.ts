import { describe, expect, it, vi } from 'vitest';
import { createI18n } from './i18n.ts';
import { addLocaleBundle, type LocaleBundle } from './localeBundle.ts';
import { COMMON_LOCALES } from './locales/bundle.ts';

const DEMO: LocaleBundle = {
  'zh-CN': { demo: { title: '演示', hint: '提示' } },
  'en-US': { demo: { title: 'Demo', hint: 'Hint' } },
};

describe('locale bundles', () => {
  it('add a feature’s strings in every language to the instance they are given', () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US');
    expect(i18n.exists('demo.title')).toBe(false);
    addLocaleBundle(i18n, DEMO);
    expect(i18n.t('demo.title')).toBe('Demo');
    expect(i18n.t('demo.title', { lng: 'zh-CN' })).toBe('演示');
    expect(i18n.t('common.language')).toBe('Language');
    expect(createI18n(COMMON_LOCALES, 'en-US').exists('demo.title')).toBe(false);
  });

  it('do not replace strings already there, and leave the bundled objects alone', () => {
    const i18n = createI18n(COMMON_LOCALES, 'zh-CN');
    i18n.addResourceBundle('zh-CN', 'translation', { demo: { title: '远程' } }, true, true);
    addLocaleBundle(i18n, DEMO);
    expect(i18n.t('demo.title')).toBe('远程');
    expect(i18n.t('demo.hint')).toBe('提示');
    i18n.addResourceBundle('zh-CN', 'translation', { demo: { hint: '改了' } }, true, true);
    expect(DEMO['zh-CN']).toEqual({ demo: { title: '演示', hint: '提示' } });
  });

  it('are added once per instance', () => {
    const i18n = createI18n(COMMON_LOCALES, 'en-US', [DEMO]);
    const add = vi.spyOn(i18n, 'addResourceBundle');
    addLocaleBundle(i18n, DEMO);
    expect(add).not.toHaveBeenCalled();
  });
});
