import { Email, Phone, Qq, Username, VerifyCode } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { fieldRules } from './fieldRules.ts';
import { AUTH_LOCALES } from './locales/bundle.ts';

const description = (schema: object) => (schema as { description?: string }).description;
const t = createI18n(COMMON_LOCALES, 'en-US', [AUTH_LOCALES]).t;

describe('field rules', () => {
  it('say in English what the contract descriptions say, as the master does', () => {
    const rules = fieldRules(t);
    const schemas = { username: Username, email: Email, phone: Phone, qq: Qq, code: VerifyCode };
    for (const [field, schema] of Object.entries(schemas)) {
      const rule = rules[field as keyof typeof rules];
      expect(typeof rule === 'object' && rule.message, field).toBe(description(schema));
    }
  });

  it('check the contract patterns', () => {
    const { username, qq } = fieldRules(t);
    const pattern = (rule: typeof username) => (typeof rule === 'object' ? rule.pattern : undefined);
    expect(pattern(username)?.test('new_user')).toBe(true);
    expect(pattern(username)?.test('-bad')).toBe(false);
    expect(pattern(qq)?.test('012345')).toBe(false);
  });
});
