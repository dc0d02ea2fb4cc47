import { PERMISSIONS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { canVisit } from './access.ts';

describe('canVisit', () => {
  const admin = { type: 1 as const, access: [PERMISSIONS.adminSys] };
  const user = { type: 2 as const, access: [] };

  it('lets anyone visit a page without limits', () => {
    expect(canVisit(user, [{}])).toBe(true);
  });

  it('checks the user type and the permissions of the page and its group', () => {
    const sysUser = [{ types: [1] as const, auth: [PERMISSIONS.adminSys] }, { auth: [PERMISSIONS.adminUser] }];
    expect(canVisit(user, [{ types: [1] as const }])).toBe(false);
    expect(canVisit(admin, [{ types: [1] as const, auth: [PERMISSIONS.adminSys] }])).toBe(true);
    expect(canVisit(admin, sysUser)).toBe(false);
  });
});
