import { type Static, Type } from 'typebox';
import { hasAccess, PERMISSIONS, type UserType } from './permissions.ts';

/**
 * One record per page of the console (spec §2). The dashboard's router, breadcrumb, tab titles and
 * access checks read these records; the master builds the menus of GET /v1/common/menu2 from them.
 * `title` is an i18n key. `types` limits a page to admins (1) or users (2); `auth` needs one of the
 * listed permission codes.
 */
export interface RouteRecord {
  path: string;
  name: string;
  title: string;
  icon?: string;
  types?: readonly UserType[];
  auth?: readonly string[];
  hidden?: boolean;
  /** false: visiting the page opens no tab. */
  tabs?: boolean;
  /** true: the page is kept alive while its tab is open. */
  cache?: boolean;
  /** A top-level entry whose pages show without the side menu in the header-menu layout. */
  hideSider?: boolean;
  redirect?: string;
  children?: readonly RouteRecord[];
}

const ADMIN = [1] as const;
const SYS = [PERMISSIONS.adminSys];
const USER = [2] as const;

const child = (path: string, name: string, extra: Partial<RouteRecord> = {}): RouteRecord => ({
  path,
  name,
  title: `route.${name}`,
  ...extra,
});

export const ROUTES: readonly RouteRecord[] = [
  child('/home', 'home', { icon: 'dashboard', types: USER }),
  child('/admin-home', 'admin-home', { icon: 'dashboard', types: ADMIN }),
  child('/dashboard', 'dashboard', { icon: 'dashboard', hidden: true }),
  {
    path: '/site',
    name: 'site',
    title: 'route.site',
    icon: 'global',
    redirect: '/site/list',
    children: [
      child('/site/list', 'site-list', { cache: true }),
      child('/site/list/:id', 'site-edit', { hidden: true }),
      child('/site/cert', 'site-cert'),
      child('/site/cache-clean', 'site-cache-clean'),
      child('/site/rule', 'site-rule'),
      child('/site/realtime', 'site-realtime'),
      child('/site/block-log', 'site-block-log'),
      child('/site/access-log', 'site-access-log'),
    ],
  },
  {
    path: '/stream',
    name: 'stream',
    title: 'route.stream',
    icon: 'swap',
    redirect: '/stream/list',
    children: [
      child('/stream/list', 'stream-list', { cache: true }),
      child('/stream/list/:id', 'stream-edit', { hidden: true }),
      child('/stream/realtime', 'stream-realtime'),
    ],
  },
  {
    path: '/user-package',
    name: 'user-package',
    title: 'route.user-package',
    icon: 'shopping',
    types: USER,
    redirect: '/user-package/my',
    children: [
      child('/user-package/my', 'user-package-my'),
      child('/user-package/buy', 'user-package-buy'),
      child('/user-package/usage', 'user-package-usage'),
    ],
  },
  {
    path: '/account',
    name: 'account',
    title: 'route.account',
    icon: 'user',
    types: USER,
    redirect: '/account/user',
    children: [
      child('/account/user', 'account-user'),
      child('/account/balance', 'account-balance', { hidden: true }),
      child('/account/subscribe', 'account-subscribe'),
      child('/account/message', 'account-message', { hidden: true }),
      child('/account/order', 'account-order'),
      child('/account/log', 'account-log'),
      child('/account/api', 'account-api'),
    ],
  },
  {
    path: '/node',
    name: 'node',
    title: 'route.node',
    icon: 'cluster',
    types: ADMIN,
    auth: [PERMISSIONS.adminNode],
    redirect: '/node/list',
    children: [
      child('/node/list', 'node-list'),
      child('/node/line-group', 'node-line-group'),
      child('/node/line-group/line/:id', 'node-line', { hidden: true }),
      child('/node/dns', 'node-dns'),
      child('/node/monitor-setting', 'node-monitor-setting'),
      child('/node/realtime', 'node-realtime'),
    ],
  },
  {
    path: '/config',
    name: 'config',
    title: 'route.config',
    icon: 'setting',
    types: ADMIN,
    auth: [PERMISSIONS.adminConfig],
    redirect: '/config/waf',
    children: [
      child('/config/waf', 'config-waf'),
      child('/config/nginx', 'config-nginx'),
      child('/config/res', 'config-res'),
      child('/config/default', 'config-default'),
      child('/config/error', 'config-error'),
    ],
  },
  {
    path: '/package',
    name: 'package',
    title: 'route.package',
    icon: 'appstore',
    types: ADMIN,
    auth: [PERMISSIONS.adminPackage],
    redirect: '/package/basic',
    children: [
      child('/package/basic', 'package-basic'),
      child('/package/sold', 'package-sold'),
      child('/package/upgrade', 'package-upgrade'),
      child('/package/marketing', 'package-marketing'),
      child('/package/monitor', 'package-monitor'),
    ],
  },
  {
    path: '/finance',
    name: 'finance',
    title: 'route.finance',
    icon: 'account-book',
    types: ADMIN,
    auth: [PERMISSIONS.adminFinance],
    redirect: '/finance/recharge',
    children: [
      child('/finance/recharge', 'finance-recharge'),
      child('/finance/order', 'finance-order'),
      child('/finance/recharge-count', 'finance-recharge-count'),
    ],
  },
  {
    path: '/sys',
    name: 'sys',
    title: 'route.sys',
    icon: 'tool',
    types: ADMIN,
    // admin:user alone opens the group for its user list; every other page needs admin:sys.
    auth: [PERMISSIONS.adminSys, PERMISSIONS.adminUser],
    redirect: '/sys/setting',
    children: [
      child('/sys/setting', 'sys-setting', { auth: SYS }),
      child('/sys/task', 'sys-task', { auth: SYS }),
      child('/sys/user', 'sys-user', { auth: [PERMISSIONS.adminUser, PERMISSIONS.adminSys] }),
      child('/sys/log', 'sys-log', { auth: SYS }),
      child('/sys/op', 'sys-op', { auth: SYS }),
      child('/sys/anno', 'sys-anno', { auth: SYS }),
      child('/sys/message', 'sys-message', { auth: SYS }),
    ],
  },
  child('/log', 'log', { icon: 'file-text', cache: true }),
  child('/system/log', 'system-log', { icon: 'file-text', hidden: true, cache: true }),
];

/** A menu entry of GET /v1/common/menu2 (spec §2: path, name, title, header, icon, custom icon, img, auth, children, hidden). */
export interface MenuItem {
  path: string;
  name: string;
  title: string;
  header?: boolean;
  icon?: string;
  customIcon?: string;
  img?: string;
  auth?: string[];
  hidden?: boolean;
  hideSider?: boolean;
  children?: MenuItem[];
}

const menuFields = {
  path: Type.String(),
  name: Type.String(),
  title: Type.String(),
  header: Type.Optional(Type.Boolean()),
  icon: Type.Optional(Type.String()),
  customIcon: Type.Optional(Type.String()),
  img: Type.Optional(Type.String()),
  auth: Type.Optional(Type.Array(Type.String())),
  hidden: Type.Optional(Type.Boolean()),
  hideSider: Type.Optional(Type.Boolean()),
};

/** Menus are two levels deep: groups and their pages. */
export const MenuItemSchema = Type.Object({
  ...menuFields,
  children: Type.Optional(Type.Array(Type.Object(menuFields))),
});

export const Menus = Type.Object({ header: Type.Array(MenuItemSchema), sider: Type.Array(MenuItemSchema) });
export type Menus = Static<typeof Menus>;

export interface MenuViewer {
  type: number;
  access: readonly string[];
}

const visibleTo = (route: RouteRecord, viewer: MenuViewer) =>
  (!route.types || route.types.some((type) => type === viewer.type)) && hasAccess(viewer.access, route.auth);

const toMenuItem = (route: RouteRecord): MenuItem => ({
  path: route.path,
  name: route.name,
  title: route.title,
  ...(route.icon !== undefined && { icon: route.icon }),
  ...(route.auth !== undefined && { auth: [...route.auth] }),
  ...(route.hidden !== undefined && { hidden: route.hidden }),
});

/**
 * The menus of GET /v1/common/menu2 for one viewer: the sider is the route tree the viewer may open
 * (by user type and access list); the header lists its visible top-level entries for the
 * header-menu layout, each marked `header` and carrying `hideSider` when its pages show without
 * the side menu. The dashboard builds the same menus itself when dynamic menus are off.
 */
export function buildMenus(viewer: MenuViewer, routes: readonly RouteRecord[] = ROUTES): Menus {
  const sider = routes
    .filter((route) => visibleTo(route, viewer))
    .map((route) => {
      const children = route.children?.filter((child) => visibleTo(child, viewer)).map(toMenuItem);
      return { ...toMenuItem(route), ...(children && { children }) };
    });
  const header = routes
    .filter((route) => !route.hidden && visibleTo(route, viewer))
    .map((route) => ({ ...toMenuItem(route), header: true, ...(route.hideSider && { hideSider: true }) }));
  return { header, sider };
}
