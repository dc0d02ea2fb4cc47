import { type Static, Type } from 'typebox';

/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps). Setting it up is two
 * calls: POST makes a secret (shown once, with its otpauth:// URI for a QR code), PUT confirms it
 * with a code from the app and answers ten one-time recovery codes, shown once.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

export const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: '6 digits from the authenticator app' });

/** A TOTP code or a recovery code (`xxxxx-xxxxx`; spaces and dashes are ignored). */
export const SecondFactorCode = Type.String({
  minLength: 6,
  maxLength: 16,
  pattern: '^[0-9A-Za-z -]+$',
  description: '6 digits from the authenticator app, or a recovery code',
});

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  /** A secret was made but not confirmed yet. */
  pending: Type.Boolean(),
  enabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  recovery_codes_left: Type.Integer({ minimum: 0 }),
});
export type TwoFactorStatus = Static<typeof TwoFactorStatus>;

/** POST /v1/user/two-factor: starting needs the current password. */
export const StartTwoFactorBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 128, description: 'your current password' }) },
  { additionalProperties: false },
);
export type StartTwoFactorBody = Static<typeof StartTwoFactorBody>;

export const TwoFactorSetup = Type.Object({
  secret: Type.String({ description: 'base32, for typing into the app by hand' }),
  otpauth_uri: Type.String({ description: 'otpauth://totp/… for the QR code' }),
});
export type TwoFactorSetup = Static<typeof TwoFactorSetup>;

/** PUT /v1/user/two-factor: a code from the app proves it holds the secret. */
export const ConfirmTwoFactorBody = Type.Object({ code: TotpCode }, { additionalProperties: false });
export type ConfirmTwoFactorBody = Static<typeof ConfirmTwoFactorBody>;

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'each works once; shown only this time' }),
});
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** DELETE /v1/user/two-factor and POST …/recovery-codes: a current code or the password. */
export const TwoFactorProofBody = Type.Object(
  {
    code: Type.Optional(SecondFactorCode),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'your current password' })),
  },
  { additionalProperties: false },
);
export type TwoFactorProofBody = Static<typeof TwoFactorProofBody>;
