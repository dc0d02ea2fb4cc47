import type { AdminUser } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { createBody, NEW_USER, newUser, updateBody, userDraft } from './userDraft.ts';

const user: AdminUser = {
  id: 7,
  account: 'alice',
  username: 'alice',
  name: 'Alice',
  email: 'alice@example.com',
  phone: '',
  qq: '',
  type: 2,
  access: [],
  group: 3,
  balance: 0,
  status: 'enabled',
  certified: false,
  package_exempt: false,
  group_name: 'VIP',
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
};

describe('user drawer payloads', () => {
  it('creates with a generated password, no empty contacts, and group 0 as none', () => {
    expect(createBody({ ...NEW_USER, username: ' bob ' })).toEqual({
      username: 'bob',
      generate_password: true,
      type: 2,
      group: null,
    });
  });

  it('sends access only for admins', () => {
    const body = createBody({
      ...NEW_USER,
      username: 'ops',
      type: 1,
      access: ['admin:node'],
      passwordMode: 'set',
      password: 'secret-1',
    });
    expect(body).toMatchObject({ password: 'secret-1', type: 1, access: ['admin:node'] });
    expect(createBody({ ...NEW_USER, username: 'u', access: ['admin:node'] })).not.toHaveProperty('access');
  });

  it('updates only what changed, keeping the password unless asked', () => {
    expect(updateBody(user, userDraft(user))).toEqual({});
    expect(updateBody(user, { ...userDraft(user), name: 'Al', group: 0 })).toEqual({ name: 'Al', group: null });
    expect(updateBody(user, { ...userDraft(user), passwordMode: 'generate' })).toEqual({ generate_password: true });
  });

  it('sends package_exempt for a customer only, and only when it changes', () => {
    expect(createBody({ ...NEW_USER, username: 'bob', packageExempt: true })).toMatchObject({ package_exempt: true });
    expect(createBody({ ...NEW_USER, username: 'op', type: 1, packageExempt: true })).not.toHaveProperty(
      'package_exempt',
    );
    expect(updateBody(user, { ...userDraft(user), packageExempt: true })).toEqual({ package_exempt: true });
    expect(updateBody({ ...user, package_exempt: true }, { ...userDraft(user), packageExempt: false })).toEqual({
      package_exempt: false,
    });
    expect(updateBody(user, userDraft(user))).toEqual({});
  });

  it('start a new user in the default group, or in none without one', () => {
    expect(
      newUser([
        { id: 4, is_default: false },
        { id: 9, is_default: true },
      ]).group,
    ).toBe(9);
    expect(newUser([{ id: 4, is_default: false }]).group).toBe(0);
  });
});
