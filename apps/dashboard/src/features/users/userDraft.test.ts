import type { AdminUser } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { createBody, NEW_USER, updateBody, userDraft } from './userDraft.ts';

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
});
