import { ALL_ADMIN_PERMISSIONS, PERMISSIONS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { buildMenus } from './menus.service.ts';

const names = (items: { name: string }[]) => items.map((item) => item.name);

describe('buildMenus', () => {
  it('gives an ordinary user the customer areas and no admin area', () => {
    const { sider } = buildMenus({ type: 2, access: [] });
    expect(names(sider)).toEqual([
      'home',
      'dashboard',
      'site',
      'stream',
      'user-package',
      'account',
      'log',
      'system-log',
    ]);
  });

  it('gives an admin with every permission the admin areas and the admin overview', () => {
    const { sider } = buildMenus({ type: 1, access: ALL_ADMIN_PERMISSIONS });
    expect(names(sider)).toEqual(
      expect.arrayContaining(['admin-home', 'site', 'stream', 'node', 'config', 'package', 'finance', 'sys']),
    );
    expect(names(sider)).not.toContain('home');
    expect(names(sider)).not.toContain('user-package');
  });

  it('shows an admin only the areas their access list allows', () => {
    const { sider } = buildMenus({ type: 1, access: [PERMISSIONS.adminNode] });
    expect(names(sider)).toContain('node');
    expect(names(sider)).not.toContain('sys');
    expect(names(sider)).not.toContain('finance');
  });

  it('keeps a child whose own auth list matches even when another code opened the group', () => {
    const { sider } = buildMenus({ type: 1, access: [PERMISSIONS.adminSys] });
    const sys = sider.find((item) => item.name === 'sys');
    expect(names(sys?.children ?? [])).toContain('sys-user');
  });

  it('puts visible top-level entries in the header list without children', () => {
    const { header } = buildMenus({ type: 2, access: [] });
    expect(header.every((item) => item.header === true && !('children' in item))).toBe(true);
    expect(names(header)).not.toContain('system-log');
  });

  it('marks header entries whose pages show without the sider', () => {
    const routes = [
      { path: '/a', name: 'a', title: 'route.a', hideSider: true },
      { path: '/b', name: 'b', title: 'route.b' },
    ];
    const { header, sider } = buildMenus({ type: 2, access: [] }, routes);
    expect(header).toEqual([
      { path: '/a', name: 'a', title: 'route.a', header: true, hideSider: true },
      { path: '/b', name: 'b', title: 'route.b', header: true },
    ]);
    expect(sider.every((item) => !('hideSider' in item))).toBe(true);
  });
});
