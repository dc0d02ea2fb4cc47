import { describe, expect, it } from 'vitest';
import { detectLanguage } from './languages.ts';

describe('detectLanguage', () => {
  it('keeps a language the user chose', () => {
    expect(detectLanguage('en-US', ['zh-CN'])).toBe('en-US');
  });

  it('follows the browser: English browsers get en-US, Chinese ones zh-CN', () => {
    expect(detectLanguage(null, ['en-GB', 'zh-CN'])).toBe('en-US');
    expect(detectLanguage(null, ['zh-TW'])).toBe('zh-CN');
  });

  it('defaults to zh-CN for other languages and unknown stored values', () => {
    expect(detectLanguage(null, ['fr-FR'])).toBe('zh-CN');
    expect(detectLanguage('de', [])).toBe('zh-CN');
  });
});
