import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id } from './fields.ts';

/**
 * Certification (real-name verification): a person with a resident ID number, or a company with its
 * unified social credit code. An admin approves it or rejects it with a reason.
 */
export const CertifyType = Type.Union([Type.Literal('personal'), Type.Literal('company')], {
  description: 'personal or company',
});
export type CertifyType = Static<typeof CertifyType>;

export const CertifyState = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')], {
  description: 'pending, approved or rejected',
});
export type CertifyState = Static<typeof CertifyState>;

export const CertifyName = Type.String({
  minLength: 2,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f<>]*$',
  description: '2 to 100 characters, no control characters or < >',
});

export const IdNumber = Type.String({
  pattern: '^[0-9A-Za-z]{18}$',
  description: '18 letters or digits: a resident ID number, or a unified social credit code',
});

/** POST /v1/user/certify */
export const CertifyBody = Type.Object(
  { type: CertifyType, name: CertifyName, id_number: IdNumber },
  { additionalProperties: false },
);
export type CertifyBody = Static<typeof CertifyBody>;

export const Certification = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  account: Type.Union([Type.String(), Type.Null()], { description: "the user's account name" }),
  type: CertifyType,
  name: Type.String(),
  id_number: Type.String({ description: 'in full for admins; the middle masked for the user' }),
  state: CertifyState,
  reason: Type.String({ description: 'why it was rejected; empty otherwise' }),
  created_at: Type.String({ format: 'date-time' }),
  reviewed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  reviewer_id: Type.Union([Type.Integer(), Type.Null()]),
});
export type Certification = Static<typeof Certification>;

/** GET /v1/user/certify: the user's own records; admins (admin:user) list everyone's, or one user's. */
export const CertifyQuery = Type.Object({
  ...ListQuery.properties,
  user_id: Type.Optional(Id),
  state: Type.Optional(CertifyState),
});
export type CertifyQuery = Static<typeof CertifyQuery>;

export const CertifyReviewState = Type.Union([Type.Literal('approved'), Type.Literal('rejected')], {
  description: 'approved or rejected',
});

/** PUT /v1/user/certify/{id} (admin:user): a rejection needs a reason. */
export const CertifyReviewBody = Type.Object(
  {
    state: CertifyReviewState,
    reason: Type.Optional(
      Type.String({
        maxLength: 500,
        pattern: '^[^\\u0000-\\u0008\\u000b-\\u001f<>]*$',
        description: 'at most 500 characters, no control characters or < >',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CertifyReviewBody = Static<typeof CertifyReviewBody>;

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
