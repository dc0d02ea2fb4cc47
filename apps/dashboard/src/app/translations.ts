import { authEnUS } from '../features/auth/locales/en-US.ts';
import { authZhCN } from '../features/auth/locales/zh-CN.ts';
import { cacheCleanEnUS } from '../features/cache-clean/locales/en-US.ts';
import { cacheCleanZhCN } from '../features/cache-clean/locales/zh-CN.ts';
import { certsEnUS } from '../features/certs/locales/en-US.ts';
import { certsZhCN } from '../features/certs/locales/zh-CN.ts';
import { dnsEnUS } from '../features/dns/locales/en-US.ts';
import { dnsZhCN } from '../features/dns/locales/zh-CN.ts';
import { logEnUS } from '../features/log/locales/en-US.ts';
import { logZhCN } from '../features/log/locales/zh-CN.ts';
import { overviewEnUS } from '../features/overview/locales/en-US.ts';
import { overviewZhCN } from '../features/overview/locales/zh-CN.ts';
import { sitesEnUS } from '../features/sites/locales/en-US.ts';
import { sitesZhCN } from '../features/sites/locales/zh-CN.ts';
import { streamsEnUS } from '../features/streams/locales/en-US.ts';
import { streamsZhCN } from '../features/streams/locales/zh-CN.ts';
import { layoutEnUS } from '../layout/locales/en-US.ts';
import { layoutZhCN } from '../layout/locales/zh-CN.ts';
import type { Translations } from '../shared/i18n/i18n.ts';
import { commonEnUS } from '../shared/i18n/locales/en-US.ts';
import { commonZhCN } from '../shared/i18n/locales/zh-CN.ts';
import { routeEnUS } from './locales/en-US.ts';
import { routeZhCN } from './locales/zh-CN.ts';

/** Every feature's strings, merged per language. */
export const TRANSLATIONS: Translations = {
  'zh-CN': {
    ...commonZhCN,
    ...routeZhCN,
    ...authZhCN,
    ...overviewZhCN,
    ...layoutZhCN,
    ...logZhCN,
    ...sitesZhCN,
    ...streamsZhCN,
    ...certsZhCN,
    ...cacheCleanZhCN,
    ...dnsZhCN,
  },
  'en-US': {
    ...commonEnUS,
    ...routeEnUS,
    ...authEnUS,
    ...overviewEnUS,
    ...layoutEnUS,
    ...logEnUS,
    ...sitesEnUS,
    ...streamsEnUS,
    ...certsEnUS,
    ...cacheCleanEnUS,
    ...dnsEnUS,
  },
};
