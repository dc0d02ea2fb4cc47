import { type Static, Type } from 'typebox';
import { Id } from '../fields.ts';
import { ERROR_PAGE_STATUSES, ErrorPageHtml, type ErrorPageStatus } from './error-page-fields.ts';
import { CacheRule } from './site.ts';

export * from './error-page-fields.ts';

/**
 * Node-wide edge settings an admin sets once for the fleet (/config/nginx, /config/res,
 * /config/error) and the defaults of new sites (/config/default). Each is one configs entry; the
 * master validates a PUT with these schemas and the agent validates the snapshot with them again.
 * Every value that reaches nginx is a bounded integer, an enum or an allow-listed MIME type; error
 * page bodies are written as files and never enter the configuration.
 */

const seconds = (minimum: number, maximum: number, fallback: number) =>
  Type.Integer({ minimum, maximum, description: `seconds from ${minimum} to ${maximum} (default ${fallback})` });

/** type/subtype in lowercase, the characters RFC 6838 allows less those nginx would treat specially. */
export const MimeType = Type.String({
  maxLength: 128,
  pattern: '^[a-z0-9][a-z0-9.+-]{0,40}/[a-z0-9][a-z0-9.+-]{0,80}$',
  description: 'a MIME type such as text/css: lowercase letters, digits and . + - around one /',
});

export const WorkerProcesses = Type.Union(
  [Type.Literal('auto'), Type.Integer({ minimum: 1, maximum: 64, description: 'from 1 to 64' })],
  { description: 'auto (one per CPU core) or a number from 1 to 64' },
);

/** `global-0-edge-nginx`: the web server of every edge. */
export const EdgeNginxSettings = Type.Object(
  {
    worker_processes: WorkerProcesses,
    worker_connections: Type.Integer({
      minimum: 256,
      maximum: 65535,
      description: 'connections per worker from 256 to 65535 (default 4096)',
    }),
    keepalive_timeout: seconds(0, 3600, 65),
    keepalive_requests: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      description: 'requests per kept-alive connection from 1 to 100000 (default 1000)',
    }),
    client_max_body_size_mb: Type.Integer({
      minimum: 0,
      maximum: 102_400,
      description: 'MB from 0 (no limit) to 102400 (default 100)',
    }),
    client_body_buffer_kb: Type.Integer({
      minimum: 1,
      maximum: 65_536,
      description: 'KB from 1 to 65536 (default 16)',
    }),
    client_header_buffer_kb: Type.Integer({ minimum: 1, maximum: 64, description: 'KB from 1 to 64 (default 1)' }),
    large_header_buffers: Type.Integer({ minimum: 1, maximum: 64, description: 'a number from 1 to 64 (default 4)' }),
    large_header_buffer_kb: Type.Integer({ minimum: 1, maximum: 64, description: 'KB from 1 to 64 (default 8)' }),
    gzip: Type.Boolean({ description: 'compress for sites that have gzip on; off turns it off everywhere' }),
    gzip_level: Type.Integer({ minimum: 1, maximum: 9, description: 'a level from 1 (fastest) to 9 (default 1)' }),
    gzip_types: Type.Array(MimeType, {
      maxItems: 64,
      uniqueItems: true,
      description: 'at most 64 MIME types (text/html is always compressed)',
    }),
    http2: Type.Boolean({ description: 'HTTP/2 for sites that have it on; off turns it off everywhere' }),
    proxy_connect_timeout: seconds(1, 300, 5),
    proxy_read_timeout: seconds(1, 3600, 60),
    proxy_send_timeout: seconds(1, 3600, 60),
  },
  { additionalProperties: false },
);
export type EdgeNginxSettings = Static<typeof EdgeNginxSettings>;

export const DEFAULT_EDGE_NGINX: EdgeNginxSettings = {
  worker_processes: 'auto',
  worker_connections: 4096,
  keepalive_timeout: 65,
  keepalive_requests: 1000,
  client_max_body_size_mb: 100,
  client_body_buffer_kb: 16,
  client_header_buffer_kb: 1,
  large_header_buffers: 4,
  large_header_buffer_kb: 8,
  gzip: true,
  gzip_level: 1,
  gzip_types: [
    'text/plain',
    'text/css',
    'text/xml',
    'application/json',
    'application/javascript',
    'application/xml',
    'image/svg+xml',
  ],
  http2: true,
  proxy_connect_timeout: 5,
  proxy_read_timeout: 60,
  proxy_send_timeout: 60,
};

/** An absolute directory of letters, digits and . _ - /, without `..` segments. */
export const AbsoluteDir = Type.String({
  maxLength: 255,
  pattern: '^(?:|(?!.*/\\.\\.?(?:/|$))/[A-Za-z0-9._/-]{0,254})$',
  description: 'empty (the agent data directory) or an absolute path of letters, digits and . _ - /',
});

/** `global-0-edge-res`: the resources every edge may use. */
export const EdgeResSettings = Type.Object(
  {
    cache_max_size_mb: Type.Integer({
      minimum: 0,
      maximum: 16_777_216,
      description: "MB of disk cache from 16, or 0 for each node's own size (default 0)",
    }),
    cache_path: AbsoluteDir,
    log_spool_mb: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'MB of logs kept while the master is away, from 1 to 1000000 (default 512)',
    }),
    max_open_files: Type.Integer({
      minimum: 1024,
      maximum: 1_048_576,
      description: 'open files per worker (worker_rlimit_nofile) from 1024 to 1048576 (default 65535)',
    }),
  },
  { additionalProperties: false },
);
export type EdgeResSettings = Static<typeof EdgeResSettings>;

export const DEFAULT_EDGE_RES: EdgeResSettings = {
  cache_max_size_mb: 0,
  cache_path: '',
  log_spool_mb: 512,
  max_open_files: 65535,
};

const ErrorPageLanguages = Type.Object(
  { 'zh-CN': Type.Optional(ErrorPageHtml), 'en-US': Type.Optional(ErrorPageHtml) },
  { additionalProperties: false },
);

/**
 * `global-0-edge-error_pages`: the edges' own error pages per status (and `waf`: the page of a
 * request the WAF refused), per language. A visitor whose Accept-Language names Chinese gets the
 * zh-CN page, one naming English the en-US page, anyone else `default_language`'s; a status without
 * a page keeps the built-in one.
 */
export const EdgeErrorPages = Type.Object(
  {
    default_language: Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')], { description: 'zh-CN or en-US' }),
    pages: Type.Object(
      Object.fromEntries(ERROR_PAGE_STATUSES.map((status) => [status, Type.Optional(ErrorPageLanguages)])) as Record<
        ErrorPageStatus,
        ReturnType<typeof Type.Optional<typeof ErrorPageLanguages>>
      >,
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type EdgeErrorPages = Static<typeof EdgeErrorPages>;

export const DEFAULT_EDGE_ERROR_PAGES: EdgeErrorPages = { default_language: 'zh-CN', pages: {} };

/** `global-0-site-defaults`: what a new site starts with, before its owner's own defaults and what was sent. */
export const NewSiteDefaults = Type.Object(
  {
    http_listen: Type.Boolean({ description: 'serve on the HTTP port' }),
    https_listen: Type.Boolean({ description: 'serve on the HTTPS port when the new site has a certificate' }),
    force_https: Type.Boolean({ description: 'redirect HTTP to HTTPS when the new site serves HTTPS' }),
    http2: Type.Boolean({ description: 'HTTP/2 when the new site serves HTTPS' }),
    gzip: Type.Boolean(),
    cache_rules: Type.Array(CacheRule, { maxItems: 64, description: 'at most 64 cache rules' }),
    rule_group_id: Type.Union([Id, Type.Null()], { description: 'the protection rule group, or null for none' }),
  },
  { additionalProperties: false },
);
export type NewSiteDefaults = Static<typeof NewSiteDefaults>;

export const DEFAULT_NEW_SITE: NewSiteDefaults = {
  http_listen: true,
  https_listen: false,
  force_https: false,
  http2: false,
  gzip: true,
  cache_rules: [],
  rule_group_id: null,
};

/** The node-wide settings in a snapshot; absent from older masters (the built-in defaults apply). */
export const EdgeSettings = Type.Object({
  nginx: EdgeNginxSettings,
  res: EdgeResSettings,
  error_pages: EdgeErrorPages,
});
export type EdgeSettings = Static<typeof EdgeSettings>;

export const DEFAULT_EDGE_SETTINGS: EdgeSettings = {
  nginx: DEFAULT_EDGE_NGINX,
  res: DEFAULT_EDGE_RES,
  error_pages: DEFAULT_EDGE_ERROR_PAGES,
};
