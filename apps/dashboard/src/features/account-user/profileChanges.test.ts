import type { User } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { profileChanges } from './profileChanges.ts';

const USER = { name: 'Alice', email: 'alice@example.com', phone: '+861380000', qq: '10001' } as User;
const values = { name: 'Alice', email: 'alice@example.com', phone: '+861380000', qq: '10001' };

describe('profile changes', () => {
  it('sends nothing when nothing changed', () => {
    expect(profileChanges({ ...values, captcha: '123456' }, USER)).toEqual({});
  });

  it('sends a new address with its code, and a cleared one or a case change without', () => {
    expect(profileChanges({ ...values, email: 'new@example.com', captcha: ' 123456 ' }, USER)).toEqual({
      email: 'new@example.com',
      captcha: '123456',
    });
    expect(profileChanges({ ...values, phone: '', phone_captcha: '1' }, USER)).toEqual({ phone: '' });
    expect(profileChanges({ ...values, email: 'ALICE@example.com' }, USER)).toEqual({ email: 'ALICE@example.com' });
  });

  it('sends the plain fields trimmed', () => {
    expect(profileChanges({ ...values, name: ' Al ', qq: '20002' }, USER)).toEqual({ name: 'Al', qq: '20002' });
  });
});
