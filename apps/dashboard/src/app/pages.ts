import type { BuiltPage } from './builtPages.ts';
import { lazyRoute, type PageModule } from './lazyRoute.tsx';

type PageLoader = () => Promise<PageModule>;

type ErrorPageName = 'ForbiddenPage' | 'NotFoundPage' | 'ServerErrorPage';

const errorPage = (name: ErrorPageName) =>
  lazyRoute(async () => ({ Component: (await import('../features/errors/ErrorPages.tsx'))[name] }));

export const forbiddenPage = errorPage('ForbiddenPage');
export const notFoundPage = errorPage('NotFoundPage');
export const serverErrorPage = errorPage('ServerErrorPage');

export const loginPage = lazyRoute(() => import('../features/auth/login/LoginPage.tsx'));
export const registerPage = lazyRoute(() => import('../features/auth/register/RegisterPage.tsx'));
export const forgetPasswordPage = lazyRoute(() => import('../features/auth/forget-password/ForgetPasswordPage.tsx'));
export const consoleLayout = lazyRoute(() => import('../layout/ConsoleLayout.tsx'));

/** The code of each built console page, by route name (one loader for every name of BUILT_PAGES). */
export const CONSOLE_PAGES: Record<BuiltPage, PageLoader> = {
  home: () => import('../features/overview/HomePage.tsx'),
  'admin-home': () => import('../features/overview/AdminHomePage.tsx'),
  dashboard: () => import('../features/overview/DashboardPage.tsx'),
  log: () => import('../features/log/LogPage.tsx'),
  'system-log': () => import('../features/log/LogPage.tsx'),
  'site-list': () => import('../features/sites/list/SiteListPage.tsx'),
  'site-edit': () => import('../features/sites/edit/SiteEditPage.tsx'),
  'site-cert': () => import('../features/certs/CertPage.tsx'),
  'site-cache-clean': () => import('../features/cache-clean/CacheCleanPage.tsx'),
  'site-rule': () => import('../features/protection/rule/RulePage.tsx'),
  'site-realtime': () => import('../features/monitor/realtime/SiteRealtimePage.tsx'),
  'site-block-log': () => import('../features/protection/block-log/BlockLogPage.tsx'),
  'site-access-log': () => import('../features/monitor/access-log/AccessLogPage.tsx'),
  'user-package-usage': () => import('../features/usage/UsagePage.tsx'),
  'user-package-my': () => import('../features/user-packages/MyPackagesPage.tsx'),
  'user-package-buy': () => import('../features/user-packages/BuyPage.tsx'),
  'package-monitor': () => import('../features/usage/PackageMonitorPage.tsx'),
  'package-basic': () => import('../features/packages/PackageBasicPage.tsx'),
  'package-sold': () => import('../features/packages/PackageSoldPage.tsx'),
  'package-upgrade': () => import('../features/packages/PackageUpgradePage.tsx'),
  'package-marketing': () => import('../features/packages/PackageMarketingPage.tsx'),
  'stream-list': () => import('../features/streams/StreamListPage.tsx'),
  'stream-edit': () => import('../features/streams/StreamEditPage.tsx'),
  'stream-realtime': () => import('../features/monitor/stream-realtime/StreamRealtimePage.tsx'),
  'node-realtime': () => import('../features/monitor/node-realtime/NodeRealtimePage.tsx'),
  'node-list': () => import('../features/nodes/NodeListPage.tsx'),
  'node-line-group': () => import('../features/line-groups/LineGroupListPage.tsx'),
  'node-line': () => import('../features/line-groups/LineRecordsPage.tsx'),
  'node-dns': () => import('../features/line-groups/DnsSettingsPage.tsx'),
  'node-monitor-setting': () => import('../features/node-monitor/MonitorSettingPage.tsx'),
  'config-waf': () => import('../features/protection/waf/WafConfigPage.tsx'),
  'config-nginx': () => import('../features/edge-settings/NginxSettingsPage.tsx'),
  'config-res': () => import('../features/edge-settings/ResSettingsPage.tsx'),
  'config-default': () => import('../features/edge-settings/SiteDefaultsPage.tsx'),
  'config-error': () => import('../features/edge-settings/ErrorPagesPage.tsx'),
  'account-user': () => import('../features/account-user/AccountUserPage.tsx'),
  'account-log': () => import('../features/account-logs/AccountLogPage.tsx'),
  'account-api': () => import('../features/api-key/ApiKeyPage.tsx'),
  'account-message': () => import('../features/messages/MessagePage.tsx'),
  'account-subscribe': () => import('../features/messages/SubscribePage.tsx'),
  'sys-setting': () => import('../features/settings/SettingsPage.tsx'),
  'sys-task': () => import('../features/tasks/TasksPage.tsx'),
  'sys-op': () => import('../features/sys-op/SysOpPage.tsx'),
  'sys-log': () => import('../features/account-logs/SysLogPage.tsx'),
  'sys-user': () => import('../features/users/UserListPage.tsx'),
  'sys-message': () => import('../features/messages/SysMessagePage.tsx'),
  'sys-anno': () => import('../features/announcements/AnnouncementPage.tsx'),
  'account-balance': () => import('../features/finance/BalancePage.tsx'),
  'account-order': () => import('../features/finance/AccountOrderPage.tsx'),
  'finance-order': () => import('../features/finance/FinanceOrderPage.tsx'),
  'finance-recharge': () => import('../features/finance/FinanceRechargePage.tsx'),
  'finance-recharge-count': () => import('../features/finance/RechargeCountPage.tsx'),
};
