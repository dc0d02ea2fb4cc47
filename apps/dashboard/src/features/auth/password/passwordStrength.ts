import { PASSWORD_MIN_LENGTH } from '@rampart/contracts';

/** Spec §5 strength labels: Too short, Medium, Strong. */
export type PasswordStrength = 'tooShort' | 'medium' | 'strong';

const CHARACTER_CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/];
const STRONG_LENGTH = 8;

/** Strong needs 8 characters from at least three of lower case, upper case, digits and symbols. */
export const passwordStrength = (password: string): PasswordStrength => {
  if (password.length < PASSWORD_MIN_LENGTH) return 'tooShort';
  const classes = CHARACTER_CLASSES.filter((pattern) => pattern.test(password)).length;
  return password.length >= STRONG_LENGTH && classes >= 3 ? 'strong' : 'medium';
};
