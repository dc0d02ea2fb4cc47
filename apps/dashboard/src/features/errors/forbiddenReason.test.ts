import { ALL_ADMIN_PERMISSIONS, PERMISSIONS, USER_TYPE } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { forbiddenReason } from './forbiddenReason.ts';

const CUSTOMER_PAGE = [{ types: [USER_TYPE.user] }];
const ADMIN_PAGE = [{ types: [USER_TYPE.admin] }, { auth: [PERMISSIONS.adminSys] }];

describe('why a page is refused', () => {
  it('names a customer page to an admin, offering to sign in as a customer to those who may', () => {
    const root = { type: USER_TYPE.admin, access: [...ALL_ADMIN_PERMISSIONS] };
    expect(forbiddenReason(root, CUSTOMER_PAGE)).toEqual({ kind: 'type', pageFor: 2, canImpersonate: true });
    const finance = { type: USER_TYPE.admin, access: [PERMISSIONS.adminFinance] };
    expect(forbiddenReason(finance, CUSTOMER_PAGE)).toEqual({ kind: 'type', pageFor: 2, canImpersonate: false });
  });

  it('names an admin page to a customer, with no sign-in-as offer', () => {
    const customer = { type: USER_TYPE.user, access: [] };
    expect(forbiddenReason(customer, ADMIN_PAGE)).toEqual({ kind: 'type', pageFor: 1, canImpersonate: false });
  });

  it('names the permission a sub-admin lacks', () => {
    const support = { type: USER_TYPE.admin, access: [PERMISSIONS.adminUser] };
    expect(forbiddenReason(support, ADMIN_PAGE)).toEqual({ kind: 'permission', needs: ['admin:sys'] });
  });
});
