import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from './permissions.ts';
import { buildMenus } from './routes.ts';

const sysPages = (access: string[]) =>
  buildMenus({ type: 1, access })
    .sider.find((item) => item.path === '/sys')
    ?.children?.map((item) => item.path);

describe('the /sys menu of sub-admins', () => {
  it('shows admin:user only the user list, and admin:sys every page', () => {
    expect(sysPages([PERMISSIONS.adminUser])).toEqual(['/sys/user']);
    expect(sysPages([PERMISSIONS.adminSys])).toEqual([
      '/sys/setting',
      '/sys/task',
      '/sys/user',
      '/sys/log',
      '/sys/op',
      '/sys/anno',
      '/sys/message',
    ]);
    expect(sysPages([PERMISSIONS.adminNode])).toBeUndefined();
  });
});
