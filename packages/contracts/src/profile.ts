import { type Static, Type } from 'typebox';
import { Email, Phone, VerifyCode } from './fields.ts';
import { UpdateCurrentUserBody } from './user.ts';

/**
 * PUT /v1/user with the codes a contact change needs: a new email address needs the code sent to
 * it (`captcha`, as at registration), a new phone number the SMS code (`phone_captcha`).
 */
export const UpdateProfileBody = Type.Object(
  {
    ...UpdateCurrentUserBody.properties,
    captcha: Type.Optional(VerifyCode),
    phone_captcha: Type.Optional(VerifyCode),
  },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

/** POST /v1/user/email-captcha: a code to the new address, for the signed-in user only. */
export const ProfileEmailCodeBody = Type.Object({ email: Email }, { additionalProperties: false });
export type ProfileEmailCodeBody = Static<typeof ProfileEmailCodeBody>;

/** POST /v1/user/phone-captcha: a code to the new number, for the signed-in user only. */
export const ProfilePhoneCodeBody = Type.Object({ phone: Phone }, { additionalProperties: false });
export type ProfilePhoneCodeBody = Static<typeof ProfilePhoneCodeBody>;

/** Codes one user may ask for, to new addresses and numbers together, per hour. */
export const PROFILE_CODES_PER_HOUR = 10;
