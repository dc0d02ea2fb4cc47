import { hasAccess, type MenuItem, type Menus, ROUTES, type RouteRecord } from '@rampart/contracts';

export interface MenuViewer {
  type: number;
  access: readonly string[];
}

const visibleTo = (route: RouteRecord, viewer: MenuViewer) =>
  (!route.types || route.types.some((type) => type === viewer.type)) && hasAccess(viewer.access, route.auth);

const toItem = (route: RouteRecord): MenuItem => ({
  path: route.path,
  name: route.name,
  title: route.title,
  ...(route.icon !== undefined && { icon: route.icon }),
  ...(route.auth !== undefined && { auth: [...route.auth] }),
  ...(route.hidden !== undefined && { hidden: route.hidden }),
});

/**
 * GET /v1/common/menu2: the sider is the route tree the viewer may open (by user type and access
 * list); the header lists its top-level entries for the header-menu layout.
 */
export function buildMenus(viewer: MenuViewer): Menus {
  const sider = ROUTES.filter((route) => visibleTo(route, viewer)).map((route) => {
    const children = route.children?.filter((child) => visibleTo(child, viewer)).map(toItem);
    return { ...toItem(route), ...(children && { children }) };
  });
  const header = sider
    .filter((item) => !item.hidden)
    .map(({ children: _children, ...item }) => ({ ...item, header: true }));
  return { header, sider };
}
