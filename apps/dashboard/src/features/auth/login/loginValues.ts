export interface LoginValues {
  account: string;
  password: string;
  /** The image captcha's text. */
  code: string;
  /** The second factor: a code from the authenticator app or a recovery code. */
  totp: string;
}

export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** Which fields are missing; the captcha and the two-factor code only count when they are shown. */
export const missingFields = (
  values: LoginValues,
  captchaRequired: boolean,
  twoFactorRequired = false,
): (keyof LoginValues)[] => [
  ...(values.account.trim() ? [] : (['account'] as const)),
  ...(values.password ? [] : (['password'] as const)),
  ...(captchaRequired && !values.code.trim() ? (['code'] as const) : []),
  ...(twoFactorRequired && !values.totp.trim() ? (['totp'] as const) : []),
];
