/**
 * Checks of the two 18-character numbers certification takes, by their national standards: the
 * resident identity number (GB 11643-1999, ISO 7064 MOD 11-2) and the unified social credit code
 * (GB 32100-2015, MOD 31). Each answers the rule broken, or null when the number is well formed.
 */
const RESIDENT_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const RESIDENT_CHECK = '10X98765432';

export function residentIdProblem(value: string): string | null {
  const id = value.toUpperCase();
  if (!/^[1-9][0-9]{16}[0-9X]$/.test(id)) return 'must be 17 digits and a digit or X';
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  const realDate = birth.getUTCFullYear() === year && birth.getUTCMonth() === month - 1 && birth.getUTCDate() === day;
  if (!realDate || year < 1900 || birth.getTime() > Date.now()) return 'holds no real date of birth';
  const sum = RESIDENT_WEIGHTS.reduce((total, weight, index) => total + weight * Number(id[index]), 0);
  return id[17] === RESIDENT_CHECK[sum % 11] ? null : 'has a wrong check character';
}

const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

export function creditCodeProblem(value: string): string | null {
  const code = value.toUpperCase();
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}[0-9]{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) {
    return 'must be 18 digits or capital letters other than I, O, S, V and Z, with digits in places 3 to 8';
  }
  const sum = CREDIT_WEIGHTS.reduce(
    (total, weight, index) => total + weight * CREDIT_CHARS.indexOf(code[index] ?? ''),
    0,
  );
  const check = (31 - (sum % 31)) % 31;
  return code[17] === CREDIT_CHARS[check] ? null : 'has a wrong check character';
}

/** The middle hidden, for the user's own view: enough to recognise it, not to copy it. */
export const maskIdNumber = (value: string) => `${value.slice(0, 4)}${'*'.repeat(value.length - 8)}${value.slice(-4)}`;
