import { hasAccess, type MenuItem, type Menus } from '@rampart/contracts';

export const EMPTY_MENUS: Menus = { header: [], sider: [] };

/** Spec §6: items with an auth list show only when the access list matches; hidden items never show. */
export const visibleItems = (items: readonly MenuItem[], access: readonly string[]): MenuItem[] =>
  items
    .filter((item) => !item.hidden && hasAccess(access, item.auth))
    .map((item) => (item.children ? { ...item, children: visibleItems(item.children, access) } : item));

/** True when `pathname` is the item's page or a page below it (`/site/list/5` is below `/site/list`). */
const covers = (path: string, pathname: string): boolean => pathname === path || pathname.startsWith(`${path}/`);

/** The top-level item and the deepest item whose path covers the pathname. */
export const activeItems = (items: readonly MenuItem[], pathname: string): { top?: MenuItem; leaf?: MenuItem } => {
  for (const top of items) {
    const child = (top.children ?? [])
      .filter((item) => covers(item.path, pathname))
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (child) return { top, leaf: child };
    if (covers(top.path, pathname)) return { top, leaf: top };
  }
  return {};
};

/**
 * What the side menu lists. Without the header menu: the whole sider tree. With it: the pages of
 * the header entry the user is in, and nothing when that entry has hideSider or no pages.
 */
export const siderItems = (menus: Menus, headerMenu: boolean, pathname: string): MenuItem[] => {
  if (!headerMenu) return menus.sider;
  const { top } = activeItems(menus.sider, pathname);
  const header = menus.header.find((item) => item.name === top?.name);
  if (!top || header?.hideSider) return [];
  return top.children ?? [];
};

export interface SearchEntry {
  path: string;
  title: string;
  /** The group's title, for context in the results. */
  group?: string;
}

/** Every page a user can reach from the menu, for the search box. */
export const searchEntries = (items: readonly MenuItem[]): SearchEntry[] =>
  items.flatMap((item) =>
    item.children && item.children.length > 0
      ? item.children.map((child) => ({ path: child.path, title: child.title, group: item.title }))
      : [{ path: item.path, title: item.title }],
  );

/** Entries whose (translated) title, group or path contains the query, case-insensitively. */
export const searchMenu = (
  entries: readonly SearchEntry[],
  query: string,
  translate: (key: string) => string,
): SearchEntry[] => {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return entries.filter((entry) =>
    [translate(entry.title), entry.group ? translate(entry.group) : '', entry.path].some((text) =>
      text.toLowerCase().includes(needle),
    ),
  );
};
