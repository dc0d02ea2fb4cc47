import type { ResetPassBody } from '@rampart/contracts';

export type ResetChannel = ResetPassBody['reset_by'];

export interface ResetValues {
  resetBy: ResetChannel;
  email?: string;
  phone?: string;
  code?: string;
  password: string;
  confirm: string;
}

/** Only the chosen channel's address and code are sent: `captcha` by email, `phone_captcha` by phone. */
export const toResetBody = ({ resetBy, email, phone, code, password }: ResetValues): ResetPassBody =>
  resetBy === 'email'
    ? { reset_by: 'email', email: email?.trim(), captcha: code?.trim(), password }
    : { reset_by: 'phone', phone: phone?.trim(), phone_captcha: code?.trim(), password };
