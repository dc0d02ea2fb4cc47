import { describe, expect, it } from 'vitest';
import { dropEmpty } from '../../shared/util/dropEmpty.ts';
import { toResetBody } from './forget-password/resetBody.ts';
import { toRegisterBody } from './register/registerBody.ts';

describe('auth payloads', () => {
  it('send the email code as captcha and leave out fields the user left empty', () => {
    const body = toRegisterBody({
      username: ' new_user ',
      email: 'a@example.com',
      emailCode: '123456',
      phone: '',
      password: 'secret1',
      confirm: 'secret1',
      agreement: true,
    });
    expect(dropEmpty(body)).toEqual({
      username: 'new_user',
      email: 'a@example.com',
      captcha: '123456',
      password: 'secret1',
      accept_agreement: true,
    });
  });

  it('send only the chosen reset channel with its own code field', () => {
    const values = { email: 'a@example.com', phone: '+8613800000000', code: '654321', password: 'x', confirm: 'x' };
    expect(dropEmpty(toResetBody({ ...values, resetBy: 'email' }))).toEqual({
      reset_by: 'email',
      email: 'a@example.com',
      captcha: '654321',
      password: 'x',
    });
    expect(dropEmpty(toResetBody({ ...values, resetBy: 'phone' }))).toEqual({
      reset_by: 'phone',
      phone: '+8613800000000',
      phone_captcha: '654321',
      password: 'x',
    });
  });
});
