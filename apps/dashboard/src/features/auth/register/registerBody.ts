import type { RegisterBody } from '@rampart/contracts';

export interface RegisterValues {
  username: string;
  email?: string;
  emailCode?: string;
  phone?: string;
  phoneCode?: string;
  password: string;
  confirm: string;
  qq?: string;
  agreement?: boolean;
}

/** Form values to the POST /v1/user payload: `captcha` is the email code, `phone_captcha` the SMS code. */
export const toRegisterBody = (values: RegisterValues): RegisterBody => ({
  username: values.username.trim(),
  password: values.password,
  email: values.email?.trim(),
  captcha: values.emailCode?.trim(),
  phone: values.phone?.trim(),
  phone_captcha: values.phoneCode?.trim(),
  qq: values.qq?.trim(),
  accept_agreement: values.agreement === true,
});
