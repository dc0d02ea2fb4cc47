import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { AUTH_LOCALES } from '../locales/bundle.ts';
import { confirmRules, passwordRules } from './passwordRules.ts';
import { passwordStrength } from './passwordStrength.ts';

describe('passwordStrength', () => {
  it('calls anything under 6 characters too short', () => {
    expect(passwordStrength('Ab1!x')).toBe('tooShort');
  });

  it('calls 6+ characters medium and 8+ from three character classes strong', () => {
    expect(passwordStrength('abcdef')).toBe('medium');
    expect(passwordStrength('abcdefgh1')).toBe('medium');
    expect(passwordStrength('Abcdefg1')).toBe('strong');
  });
});

describe('password messages', () => {
  const t = createI18n(COMMON_LOCALES, 'en-US', [AUTH_LOCALES]).t;

  it('use the spec §5 texts word for word', () => {
    const messages = [...passwordRules(t), ...confirmRules(t, 'password')].map((rule) =>
      typeof rule === 'function' ? undefined : rule.message,
    );
    expect(messages).toEqual([
      'Password can not be empty!',
      'The password cannot be less than 6 characters!',
      'Confirm password can not be empty!',
      undefined,
    ]);
    expect(t('auth.password.mismatch')).toBe('The passwords you entered twice do not match!');
    expect(['tooShort', 'medium', 'strong'].map((level) => t(`auth.password.level.${level}`))).toEqual([
      'Too short',
      'Medium',
      'Strong',
    ]);
  });

  it('are translated to zh-CN', () => {
    const zh = createI18n(COMMON_LOCALES, 'zh-CN', [AUTH_LOCALES]).t;
    expect(zh('auth.password.tooShort', { min: '6' })).toBe('密码不能少于 6 个字符！');
    expect(zh('auth.password.mismatch')).toBe('两次输入的密码不一致！');
  });
});
