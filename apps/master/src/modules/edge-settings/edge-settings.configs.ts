import {
  DEFAULT_EDGE_ENFORCEMENT,
  DEFAULT_EDGE_ERROR_PAGES,
  DEFAULT_EDGE_NGINX,
  DEFAULT_EDGE_RES,
  DEFAULT_NEW_SITE,
  EdgeEnforcementSettings,
  EdgeErrorPages,
  EdgeNginxSettings,
  EdgeResSettings,
  NewSiteDefaults,
  PERMISSIONS,
} from '@rampart/contracts';
import type { TSchema } from 'typebox';
import type { ConfigDefinition } from '../settings/config-definition.ts';

const entry = <T extends TSchema>(definition: ConfigDefinition<T>) => definition;

export const EDGE_NGINX = entry({
  scope_name: 'global',
  scope_id: 0,
  type: 'edge',
  name: 'nginx',
  schema: EdgeNginxSettings,
  fallback: DEFAULT_EDGE_NGINX,
  permission: PERMISSIONS.adminConfig,
  description:
    'The web server of every edge: worker processes and connections, keepalive, client body and header buffers, gzip, HTTP/2, proxy timeouts',
  edge: true,
});

export const EDGE_RES = entry({
  scope_name: 'global',
  scope_id: 0,
  type: 'edge',
  name: 'res',
  schema: EdgeResSettings,
  fallback: DEFAULT_EDGE_RES,
  permission: PERMISSIONS.adminConfig,
  description: 'Resources of every edge: cache disk size and path, log spool size, max open files',
  edge: true,
});

export const EDGE_ERROR_PAGES = entry({
  scope_name: 'global',
  scope_id: 0,
  type: 'edge',
  name: 'error_pages',
  schema: EdgeErrorPages,
  fallback: DEFAULT_EDGE_ERROR_PAGES,
  permission: PERMISSIONS.adminConfig,
  description:
    'Error pages the edges answer, per status (400, 403, 404, 500, 502, 503, 504, waf) and language (zh-CN, en-US): {default_language, pages}',
  edge: true,
});

export const EDGE_ENFORCEMENT = entry({
  scope_name: 'global',
  scope_id: 0,
  type: 'edge',
  name: 'enforcement',
  schema: EdgeEnforcementSettings,
  fallback: DEFAULT_EDGE_ENFORCEMENT,
  permission: PERMISSIONS.adminConfig,
  description:
    'Sites of a user package that is expired, suspended or past its monthly traffic: {policy: suspend (a suspension page) or throttle (served at throttle_kbps KB/s per connection), throttle_kbps}',
  edge: true,
});

export const SITE_DEFAULTS = entry({
  scope_name: 'global',
  scope_id: 0,
  type: 'site',
  name: 'defaults',
  schema: NewSiteDefaults,
  fallback: DEFAULT_NEW_SITE,
  permission: PERMISSIONS.adminConfig,
  description:
    'What new sites start with: HTTP and HTTPS listening, HTTPS redirect, HTTP/2, gzip, cache rules, protection rule group',
  edge: false,
});

export const EDGE_SETTING_CONFIGS: readonly ConfigDefinition[] = [
  EDGE_NGINX,
  EDGE_RES,
  EDGE_ERROR_PAGES,
  EDGE_ENFORCEMENT,
  SITE_DEFAULTS,
];
