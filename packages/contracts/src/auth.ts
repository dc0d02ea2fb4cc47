import { type Static, Type } from 'typebox';
import { Account, Email, Password, Phone, Qq, Username, VerifyCode } from './fields.ts';
import { User } from './user.ts';

/**
 * POST /v1/login. With `captcha` (the id of an image captcha), `code` is the text read from it;
 * without it, `code` is the second factor (a TOTP code or a recovery code) of an account that has one.
 */
export const LoginBody = Type.Object(
  {
    account: Account,
    password: Type.String({ minLength: 1, maxLength: 128, description: 'the password' }),
    captcha: Type.Optional(Type.String({ maxLength: 64, description: 'the id of the image captcha' })),
    code: Type.Optional(
      Type.String({ maxLength: 16, description: 'the text of the image captcha, or the two-factor code' }),
    ),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const LoginPolicyQuery = Type.Object({ account: Type.Optional(Type.String({ maxLength: 254 })) });
export const LoginPolicy = Type.Object({
  captcha_required: Type.Boolean(),
  /** True once the password was proven from this address and the account's second factor is awaited. */
  two_factor_required: Type.Boolean(),
});
export type LoginPolicy = Static<typeof LoginPolicy>;

/** GET /v1/common/captcha: a fresh image captcha. */
export const ImageCaptcha = Type.Object({ captcha: Type.String(), svg: Type.String() });
export type ImageCaptcha = Static<typeof ImageCaptcha>;

export const CaptchaPurpose = Type.Union([Type.Literal('register'), Type.Literal('reset')]);
export type CaptchaPurpose = Static<typeof CaptchaPurpose>;

export const EmailCaptchaBody = Type.Object(
  { email: Email, purpose: Type.Optional(CaptchaPurpose) },
  { additionalProperties: false },
);
export type EmailCaptchaBody = Static<typeof EmailCaptchaBody>;

export const PhoneCaptchaBody = Type.Object(
  { phone: Phone, purpose: Type.Optional(CaptchaPurpose) },
  { additionalProperties: false },
);
export type PhoneCaptchaBody = Static<typeof PhoneCaptchaBody>;

export const CaptchaSent = Type.Object({ expires_in: Type.Integer(), resend_after: Type.Integer() });
export type CaptchaSent = Static<typeof CaptchaSent>;

/** POST /v1/user (register). `captcha` is the email code, `phone_captcha` the SMS code. */
export const RegisterBody = Type.Object(
  {
    username: Username,
    password: Password,
    email: Type.Optional(Email),
    captcha: Type.Optional(VerifyCode),
    phone: Type.Optional(Phone),
    phone_captcha: Type.Optional(VerifyCode),
    qq: Type.Optional(Qq),
    accept_agreement: Type.Boolean({ description: 'must be true' }),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const ResetPassBody = Type.Object(
  {
    reset_by: Type.Union([Type.Literal('email'), Type.Literal('phone')], { description: 'email or phone' }),
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    captcha: Type.Optional(VerifyCode),
    phone_captcha: Type.Optional(VerifyCode),
    password: Password,
  },
  { additionalProperties: false },
);
export type ResetPassBody = Static<typeof ResetPassBody>;

export const SysInfo = Type.Object({ footer_link: Type.String(), footer_copyright: Type.String() });
export type SysInfo = Static<typeof SysInfo>;

/** Which captchas the server uses: always an image captcha for login; reset channels that work. */
export const CaptchaTypes = Type.Object({
  login: Type.Literal('image'),
  reset: Type.Array(Type.Union([Type.Literal('email'), Type.Literal('phone')])),
});
export type CaptchaTypes = Static<typeof CaptchaTypes>;

export const FieldRequirement = Type.Union([
  Type.Literal('required'),
  Type.Literal('optional'),
  Type.Literal('hidden'),
]);
export type FieldRequirement = Static<typeof FieldRequirement>;

/** Whether codes can be sent by email and by SMS (a mail server, an SMS provider set up). */
export const CodeChannels = Type.Object({
  phone_code: Type.Boolean({
    description:
      'an SMS provider is set up: POST /v1/phone-captcha sends codes and registration asks for one with a phone; false: it refuses with channel_unavailable and a phone is taken without a code',
  }),
  email_code: Type.Boolean({
    description:
      'mail can be sent (an SMTP host in /sys/setting or RAMPART_SMTP_URL): POST /v1/email-captcha sends codes and registration asks for one with an email; false: it refuses with channel_unavailable and an email is taken without a code',
  }),
});
export type CodeChannels = Static<typeof CodeChannels>;

export const RegisterInfo = Type.Object({
  open: Type.Boolean(),
  fields: Type.Object({ email: FieldRequirement, phone: FieldRequirement, qq: FieldRequirement }),
  agreement_url: Type.String(),
  ...CodeChannels.properties,
});
export type RegisterInfo = Static<typeof RegisterInfo>;

export const SiteSysConfig = Type.Object({
  site_name: Type.String(),
  logo_url: Type.String(),
  register_open: Type.Boolean(),
  /** The language of visitors who have not picked one, and the languages they may pick (/sys/setting). */
  default_language: Type.String(),
  languages: Type.Array(Type.String()),
});
export type SiteSysConfig = Static<typeof SiteSysConfig>;

/** GET /v1/common/auth: the current session. */
export const Session = Type.Object({
  user: User,
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when the session ends; null for an API key, which lasts until it is rotated or deleted',
  }),
});
export type Session = Static<typeof Session>;

/** POST /v1/common/auth: a new token replaces the one sent, which stops working. */
export const RefreshedToken = Type.Object({
  access_token: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});
export type RefreshedToken = Static<typeof RefreshedToken>;
