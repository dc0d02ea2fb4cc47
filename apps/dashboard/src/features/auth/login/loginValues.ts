export interface LoginValues {
  account: string;
  password: string;
  code: string;
}

export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

/** Which fields are missing; the captcha only counts when it is shown. */
export const missingFields = (values: LoginValues, captchaRequired: boolean): (keyof LoginValues)[] => [
  ...(values.account.trim() ? [] : (['account'] as const)),
  ...(values.password ? [] : (['password'] as const)),
  ...(captchaRequired && !values.code.trim() ? (['code'] as const) : []),
];
