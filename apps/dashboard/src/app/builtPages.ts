/**
 * Route names of the console pages built so far; every other record of ROUTES renders the 404 page.
 * Apart from the loaders (pages.ts), so that the chrome can tell pages apart without importing them.
 */
export const BUILT_PAGES = [
  'home',
  'admin-home',
  'dashboard',
  'log',
  'system-log',
  'site-list',
  'site-edit',
  'site-cert',
  'site-cache-clean',
  'site-rule',
  'site-realtime',
  'site-block-log',
  'site-access-log',
  'user-package-usage',
  'user-package-my',
  'user-package-buy',
  'package-monitor',
  'package-basic',
  'package-sold',
  'package-upgrade',
  'package-marketing',
  'stream-list',
  'stream-edit',
  'stream-realtime',
  'node-realtime',
  'node-list',
  'node-line-group',
  'node-line',
  'node-dns',
  'node-monitor-setting',
  'config-waf',
  'config-nginx',
  'config-res',
  'config-default',
  'config-error',
  'account-user',
  'account-log',
  'account-api',
  'account-message',
  'account-subscribe',
  'sys-setting',
  'sys-task',
  'sys-op',
  'sys-log',
  'sys-user',
  'sys-message',
  'sys-anno',
  'account-balance',
  'account-order',
  'finance-order',
  'finance-recharge',
  'finance-recharge-count',
] as const;

export type BuiltPage = (typeof BUILT_PAGES)[number];

const BUILT = new Set<string>(BUILT_PAGES);

export const isBuiltPage = (name: string): name is BuiltPage => BUILT.has(name);
