import { Email, Phone, Qq, Username, VerifyCode } from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** The limits a contracts string schema carries; the master enforces the same ones. */
interface StringLimits {
  pattern?: string | RegExp;
  minLength?: number;
  maxLength?: number;
}

const limitsRule = (schema: object, message: string): Rule => {
  const { pattern, minLength, maxLength } = schema as StringLimits;
  return {
    pattern: pattern === undefined ? undefined : new RegExp(pattern),
    min: minLength,
    max: maxLength,
    message,
  };
};

type Translate = TFunction;

/** Form rules for the shared fields, from the same schemas the master validates with. */
export const fieldRules = (t: Translate) => ({
  username: limitsRule(Username, t('auth.field.rule.username')),
  email: limitsRule(Email, t('auth.field.rule.email')),
  phone: limitsRule(Phone, t('auth.field.rule.phone')),
  qq: limitsRule(Qq, t('auth.field.rule.qq')),
  code: limitsRule(VerifyCode, t('auth.field.rule.code')),
});
