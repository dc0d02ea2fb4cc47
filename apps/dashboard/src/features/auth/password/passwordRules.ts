import { PASSWORD_MIN_LENGTH } from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

type Translate = TFunction;

/** Spec §5 password messages, word for word. */
export const passwordRules = (t: Translate): Rule[] => [
  { required: true, message: t('auth.password.empty') },
  { min: PASSWORD_MIN_LENGTH, message: t('auth.password.tooShort', { min: String(PASSWORD_MIN_LENGTH) }) },
];

export const confirmRules = (t: Translate, passwordField: string): Rule[] => [
  { required: true, message: t('auth.password.confirmEmpty') },
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || value === getFieldValue(passwordField)
        ? Promise.resolve()
        : Promise.reject(new Error(t('auth.password.mismatch'))),
  }),
];
