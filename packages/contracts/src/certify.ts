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
