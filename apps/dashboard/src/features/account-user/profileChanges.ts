import type { UpdateProfileBody, User } from '@rampart/contracts';

export interface ProfileValues {
  name: string;
  email: string;
  phone: string;
  qq: string;
  captcha?: string;
  phone_captcha?: string;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether the form's address differs from the stored one so that a code is needed (clearing needs none). */
export const needsCode = (next: string | undefined, current: string) =>
  Boolean(next?.trim()) && !same(next ?? '', current);

/** Only what changed, with the code of each new address: the master refuses a new one without it. */
export function profileChanges(values: ProfileValues, user: User): UpdateProfileBody {
  const body: UpdateProfileBody = {};
  if (values.name.trim() !== user.name) body.name = values.name.trim();
  if (values.qq.trim() !== user.qq) body.qq = values.qq.trim();
  if (values.email.trim() !== user.email) {
    body.email = values.email.trim();
    if (needsCode(values.email, user.email)) body.captcha = values.captcha?.trim();
  }
  if (values.phone.trim() !== user.phone) {
    body.phone = values.phone.trim();
    if (needsCode(values.phone, user.phone)) body.phone_captcha = values.phone_captcha?.trim();
  }
  return body;
}
