import { buildMenus, type Menus, PERMISSIONS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { activeItems, searchEntries, searchMenu, siderItems, visibleItems } from './menuModel.ts';

const names = (items: readonly { name: string }[]) => items.map((item) => item.name);

describe('menu model', () => {
  it('shows items with an auth list only to matching access lists, and never hidden items', () => {
    const items = [
      { path: '/a', name: 'a', title: 'A' },
      { path: '/b', name: 'b', title: 'B', auth: [PERMISSIONS.adminSys] },
      { path: '/c', name: 'c', title: 'C', hidden: true },
    ];
    expect(names(visibleItems(items, []))).toEqual(['a']);
    expect(names(visibleItems(items, [PERMISSIONS.adminSys]))).toEqual(['a', 'b']);
  });

  it('finds the group and the page of a path, also below a page (an edit page)', () => {
    const { sider } = buildMenus({ type: 2, access: [] });
    expect(activeItems(sider, '/site/list/12')).toMatchObject({ top: { name: 'site' }, leaf: { name: 'site-list' } });
    expect(activeItems(sider, '/log')).toMatchObject({ top: { name: 'log' }, leaf: { name: 'log' } });
    expect(activeItems(sider, '/nowhere')).toEqual({});
  });

  it('lists the chosen header entry’s pages in the sider in header-menu mode, none with hideSider', () => {
    const menus: Menus = buildMenus({ type: 2, access: [] });
    expect(siderItems(menus, false, '/site/cert')).toBe(menus.sider);
    expect(names(siderItems(menus, true, '/site/cert'))).toContain('site-cert');
    expect(siderItems(menus, true, '/log')).toEqual([]);
    const hiding = { ...menus, header: menus.header.map((item) => ({ ...item, hideSider: item.name === 'site' })) };
    expect(siderItems(hiding, true, '/site/cert')).toEqual([]);
  });

  it('searches page titles, group titles and paths', () => {
    const { sider } = buildMenus({ type: 2, access: [] });
    const entries = searchEntries(visibleItems(sider, []));
    const english: Record<string, string> = { 'route.site-cert': 'Certificates', 'route.site': 'Sites' };
    const translate = (key: string) => english[key] ?? key;
    expect(searchMenu(entries, 'certif', translate).map((entry) => entry.path)).toEqual(['/site/cert']);
    expect(searchMenu(entries, '/stream/real', translate).map((entry) => entry.path)).toEqual(['/stream/realtime']);
    expect(searchMenu(entries, '  ', translate)).toEqual([]);
  });
});
