import { DEFAULT_EDGE_SETTINGS, type EdgeNodeSettings, type EdgeSettings } from '@rampart/contracts';
import { BANDWIDTH_DICT, cacheZone, type HttpServerOptions, renderHttpServer } from './http-server.ts';
import { luaVariablesDirective } from './lua-variables.ts';
import { integer, mimeType, quote, RenderRefusal, safeText } from './quote.ts';
import type { RenderOptions } from './types.ts';

/** Loaded in this order: ndk before lua (DESIGN.md, platform facts). */
const MODULES = [
  'ndk_http_module.so',
  'ngx_http_lua_module.so',
  'ngx_stream_module.so',
  'ngx_http_cache_purge_module.so',
  'ngx_http_headers_more_filter_module.so',
];

/** Loaded only while a site has the WAF on: other nodes never pay for ModSecurity. */
export const WAF_MODULE = 'ngx_http_modsecurity_module.so';

/** Loaded only on nodes that hold the GeoIP database (and have Debian's libnginx-mod-http-geoip2). */
export const GEOIP_MODULE = 'ngx_http_geoip2_module.so';

export const PURGE_KEY_HEADER = 'x-rampart-purge-key';

/**
 * One JSON object per request, the fields of AccessLogLine (ids and upstream time as strings, parsed
 * by the agent); with the WAF in use, also the ModSecurity transaction id the agent adds the WAF's
 * findings by (nodes without WAF sites do not pay for the field).
 */
export const accessLogFormat = (waf: boolean, geoip: boolean) =>
  [
    '{"time":$msec',
    '"site_id":"$rampart_site_id"',
    '"client_ip":"$remote_addr"',
    '"method":"$request_method"',
    '"host":"$host"',
    '"uri":"$request_uri"',
    '"status":$status',
    '"bytes_sent":$bytes_sent',
    '"bytes_received":$request_length',
    '"request_time":$request_time',
    '"upstream_time":"$upstream_response_time"',
    '"cache_status":"$upstream_cache_status"',
    '"user_agent":"$http_user_agent"',
    '"referer":"$http_referer"',
    ...(geoip ? ['"country":"$rampart_country"'] : []),
    ...(waf
      ? ['"block_reason":"$rampart_block_reason"', '"waf_tx":"$rampart_waf_tx"}']
      : ['"block_reason":"$rampart_block_reason"}']),
  ].join(',');

/** One JSON object per TCP or UDP session, the fields of StreamLogLine. */
const STREAM_LOG_FORMAT = [
  '{"time":$msec',
  '"stream_id":"$rampart_stream_id"',
  '"client_ip":"$remote_addr"',
  '"protocol":"$protocol"',
  '"status":$status',
  '"bytes_sent":$bytes_sent',
  '"bytes_received":$bytes_received',
  '"session_time":$session_time',
  '"upstream":"$upstream_addr"}',
].join(',');

/**
 * What the control server's /version answers once every worker serves a routing table: the table's
 * version and the apply that wrote it (routes.json carries it, so a swap without a reload proves too).
 */
export function versionToken(version: number, applyId: string): string {
  const id = safeText(applyId, 'applyId', 64);
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new RenderRefusal('applyId', 'letters, digits and - only');
  return `${integer(version, 'version')} ${id}`;
}

/** What the main config needs besides the node settings: the shape of the site server, and streams. */
export interface MainConfigParts {
  hasStreams: boolean;
  http: Omit<HttpServerOptions, 'node' | 'listenAddress' | 'gzip'>;
  /** The fleet's settings (/config/nginx, /config/res, /config/error), validated; the defaults when absent. */
  settings?: EdgeSettings;
  /** Whether the snapshot carried the settings: only then do they replace the agent's --workers. */
  fleetWorkers?: boolean;
  /** The size of routes.json: its swaps pass through a shared zone sized for it (routesZoneMb). */
  routesBytes?: number;
}

/**
 * Megabytes of the shared zone that carries a swapped routing table to the workers: room for two
 * copies and a half of `bytes` (a swap replaces the last one), in powers of two so that nginx.conf
 * changes only when the routing data outgrows its zone. At least 2.
 */
export function routesZoneMb(bytes: number): number {
  const needed = Math.ceil((bytes * 2.5) / 1_048_576);
  let mb = 2;
  while (mb < needed) mb *= 2;
  return mb;
}

export const NO_SITES: MainConfigParts['http'] = { defaultCert: null, http2: false, cacheProfiles: [] };

/**
 * nginx.conf: the same bytes for every tree whose routing data alone differs (the version is in
 * routes.json), so the agent can swap that data into the running workers without a reload.
 */
export function renderMainConfig(
  node: EdgeNodeSettings,
  options: RenderOptions,
  parts: MainConfigParts = { hasStreams: false, http: NO_SITES },
): string {
  const { paths } = options;
  const { hasStreams } = parts;
  const { nginx, res } = parts.settings ?? DEFAULT_EDGE_SETTINGS;
  const control = `127.0.0.1:${integer(options.controlPort, 'controlPort', 1, 65535)}`;
  // The fleet's cache path replaces the data directory's when set.
  const customCache = res.cache_path === '' ? null : cachePath(res.cache_path);
  const zone = cacheZone(customCache);
  const site = renderHttpServer({
    ...parts.http,
    node,
    listenAddress: options.listenAddress,
    gzip: nginx.gzip,
    cacheZone: zone,
    fastPath: Boolean(paths.fastPathModule),
  });
  const routes = quote(`${safeText(options.treeDir, 'treeDir', 1024)}/routes.json`, 'treeDir');
  const accessLog = quote(paths.accessLog, 'accessLog');
  const waf = Boolean(parts.http.wafRulesFile);
  const geoip = Boolean(paths.geoip);
  // `;;` appends Lua's default path (lua-resty-core); the directory itself passed the guard.
  const lua = `"${safeText(paths.luaDir, 'luaDir', 1024)}/?.lua;;"`;
  const routesMb = routesZoneMb(Number(integer(parts.routesBytes ?? 0, 'routesBytes', 0, 4_294_967_295)));
  const workerSetting = parts.fleetWorkers ? nginx.worker_processes : options.workerProcesses;
  const workers = workerSetting === 'auto' ? 'auto' : integer(workerSetting, 'worker_processes', 1, 1024);
  const seconds = (value: number, field: string, min: number, max: number) => `${integer(value, field, min, max)}s`;
  const kb = (value: number, field: string, max: number) => `${integer(value, field, 1, max)}k`;
  const user = options.nginxUser
    ? [
        `user ${options.nginxUser
          .split(' ')
          .map((part) => quote(part, 'nginxUser', 32))
          .join(' ')};`,
      ]
    : [];
  const temp = (name: string) => quote(`${paths.tempDir}/${name}`, 'tempDir');
  // The fleet's cache size replaces the node's own when set.
  const maxCache =
    res.cache_max_size_mb === 0
      ? integer(node.max_cache_size_mb, 'max_cache_size_mb', 16)
      : integer(res.cache_max_size_mb, 'cache_max_size_mb', 16, 16_777_216);
  const cacheDir = customCache ?? paths.cacheDir;
  // text/html is always compressed: nginx warns when it is listed.
  const gzipTypes = nginx.gzip_types.map((type) => mimeType(type, 'gzip_types')).filter((type) => type !== 'text/html');

  return [
    '# Rendered by the Rampart agent; the next apply replaces it. The version is in routes.json.',
    ...[...MODULES, ...(parts.http.wafRulesFile ? [WAF_MODULE] : []), ...(paths.geoip ? [GEOIP_MODULE] : [])].map(
      (module) => `load_module ${quote(`${paths.modulesDir}/${module}`, 'modulesDir')};`,
    ),
    // After the Lua module: its rewrite handler then runs before the Lua router's.
    ...(paths.fastPathModule ? [`load_module ${quote(paths.fastPathModule, 'fastPathModule')};`] : []),
    ...user,
    `worker_processes ${workers};`,
    `worker_rlimit_nofile ${integer(res.max_open_files, 'max_open_files', 1024, 1_048_576)};`,
    // Old workers of a reload give long-lived connections (WebSocket, streams) this long to finish.
    'worker_shutdown_timeout 30s;',
    `pid ${quote(paths.pidFile, 'pidFile')};`,
    `error_log ${quote(paths.errorLog, 'errorLog')} warn;`,
    '',
    'events {',
    `    worker_connections ${integer(nginx.worker_connections, 'worker_connections', 256, 65535)};`,
    '}',
    '',
    'http {',
    '    default_type application/octet-stream;',
    '    server_tokens off;',
    '    sendfile on;',
    '    tcp_nopush on;',
    // A proxied request's allocations fit in one block of its pool: with nginx's 4k it took three,
    // allocated and freed each request (about 1,300 instructions, a twentieth of the request).
    // Each HTTP/2 stream is a request with such a pool too (its count went down by 1,100 as well).
    '    request_pool_size 16k;',
    `    keepalive_timeout ${seconds(nginx.keepalive_timeout, 'keepalive_timeout', 0, 3600)};`,
    `    keepalive_requests ${integer(nginx.keepalive_requests, 'keepalive_requests', 1, 100_000)};`,
    `    client_max_body_size ${integer(nginx.client_max_body_size_mb, 'client_max_body_size_mb', 0, 102_400)}m;`,
    `    client_body_buffer_size ${kb(nginx.client_body_buffer_kb, 'client_body_buffer_kb', 65_536)};`,
    `    client_header_buffer_size ${kb(nginx.client_header_buffer_kb, 'client_header_buffer_kb', 64)};`,
    `    large_client_header_buffers ${integer(nginx.large_header_buffers, 'large_header_buffers', 1, 64)} ${kb(nginx.large_header_buffer_kb, 'large_header_buffer_kb', 64)};`,
    '    server_names_hash_max_size 131072;',
    '    server_names_hash_bucket_size 128;',
    '    map_hash_bucket_size 128;',
    `    client_body_temp_path ${temp('client_body')};`,
    `    proxy_temp_path ${temp('proxy')};`,
    `    fastcgi_temp_path ${temp('fastcgi')};`,
    `    uwsgi_temp_path ${temp('uwsgi')};`,
    `    scgi_temp_path ${temp('scgi')};`,
    '',
    `    log_format rampart_access escape=json '${accessLogFormat(waf, geoip)}';`,
    // Every request is logged: one no site serves (no site id, read as 0) is the node's, for admins.
    ...(paths.fastPathModule
      ? [
          "    # The same line, written by the agent's nginx module instead of nginx's log module (off, else",
          '    # it would write its default log too), for a little over half the instructions.',
          '    access_log off;',
          `    rampart_access_log ${accessLog} buffer=64k flush=1s${geoip ? ' country' : ''}${waf ? ' waf' : ''};`,
        ]
      : [`    access_log ${accessLog} rampart_access buffer=64k flush=1s;`]),
    '',
    `    lua_package_path ${lua};`,
    '    lua_shared_dict rampart_peers 4m;',
    '    # Origin health checks: the state of each checked origin, written by one worker, read by all (healthcheck.lua).',
    '    lua_shared_dict rampart_health 4m;',
    '    # Routing data swapped in without a reload, and the version each worker serves (routes.lua).',
    `    lua_shared_dict rampart_routes ${routesMb}m;`,
    '    # Protection: request counters of rate filters, and the bans this node sets (both survive reloads).',
    '    lua_shared_dict rampart_limits 64m;',
    '    lua_shared_dict rampart_bans 16m;',
    '    # OCSP responses the agent fetched, stapled to handshakes (tls_ocsp.lua).',
    '    lua_shared_dict rampart_ocsp 8m;',
    ...(parts.http.bandwidthCaps ? [`    lua_shared_dict ${BANDWIDTH_DICT} 1m;`] : []),
    '    lua_regex_match_limit 100000;',
    ...(paths.fastPathModule
      ? [
          "    # The variables the Lua router reads, indexed for ngx_var.lua's reads (the agent's nginx module).",
          `    ${luaVariablesDirective({ geoip: Boolean(paths.geoip), bandwidthCaps: Boolean(parts.http.bandwidthCaps) })}`,
        ]
      : []),
    '    # The routing table is read once, in the master: workers share it until a swap replaces it in',
    '    # each of them. Every module loads here too, so workers never read Lua files themselves.',
    '    init_by_lua_block {',
    // A protected request's route is one trace holding its site's compiled checks, with more
    // constants than LuaJIT's default allows: past it the trace is given up and the route runs in
    // the interpreter (a sixth of the instructions of a cache hit with an ACL and five CC rules).
    '        require("jit.opt").start("maxrecord=16000", "maxirconst=2000")',
    `        require("rampart.routes").load(${routes}${paths.fastPathModule ? ', true' : ''})`,
    '        rampart_router = require("rampart.router")',
    '        rampart_balancer = require("rampart.balancer")',
    '        rampart_respond = require("rampart.respond")',
    '        rampart_tls = require("rampart.tls")',
    // Certificates parsed here are the workers' from their start, as nginx's own are.
    '        rampart_tls.warm()',
    '        require("rampart.healthcheck")',
    '    }',
    '    init_worker_by_lua_block {',
    '        require("rampart.protect").apply_unbans()',
    '        require("rampart.routes").init_worker()',
    '        require("rampart.healthcheck").init_worker()',
    '    }',
    '',
    `    proxy_cache_path ${quote(cacheDir, 'cache_path')} levels=1:2 keys_zone=${zone}:32m max_size=${maxCache}m inactive=7d use_temp_path=off;`,
    // Descriptors of cache files stay open between hits: nginx checks a cached descriptor against the
    // zone's entry (its inode), so a refreshed or purged entry is opened again; the agent purges
    // through the zone, never by unlinking alone (sync/jobs.ts).
    '    open_file_cache max=10000 inactive=60s;',
    '    open_file_cache_valid 30s;',
    '    proxy_http_version 1.1;',
    `    proxy_connect_timeout ${seconds(nginx.proxy_connect_timeout, 'proxy_connect_timeout', 1, 300)};`,
    `    proxy_read_timeout ${seconds(nginx.proxy_read_timeout, 'proxy_read_timeout', 1, 3600)};`,
    `    proxy_send_timeout ${seconds(nginx.proxy_send_timeout, 'proxy_send_timeout', 1, 3600)};`,
    '    proxy_next_upstream error timeout http_502 http_503 http_504;',
    '    proxy_next_upstream_tries 3;',
    '    proxy_next_upstream_timeout 15s;',
    '',
    `    gzip_comp_level ${integer(nginx.gzip_level, 'gzip_level', 1, 9)};`,
    ...(gzipTypes.length > 0 ? [`    gzip_types ${gzipTypes.join(' ')};`] : []),
    '    gzip_proxied any;',
    '    gzip_vary on;',
    '    gzip_min_length 256;',
    '',
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    '    ssl_session_cache shared:rampart_ssl:16m;',
    '    ssl_session_timeout 1h;',
    // Keys of the node, not of one reload: tickets stay good across reloads and a rotation (the
    // first key encrypts, the second still decrypts what it gave out).
    ...(paths.ticketKeys
      ? [
          `    ssl_session_ticket_key ${quote(paths.ticketKeys.current, 'ticketKeys')};`,
          `    ssl_session_ticket_key ${quote(paths.ticketKeys.previous, 'ticketKeys')};`,
        ]
      : []),
    '',
    '    # The path without the query string, as the client sent it (cache keys of rules that ignore the query).',
    '    map $request_uri $rampart_request_path {',
    '        "~^(?<rampart_path>[^?]*)" $rampart_path;',
    '        default $request_uri;',
    '    }',
    '    # The path of cache keys: the router sets $rampart_ignore_query to 1 for rules that ignore the',
    '    # query, or to the path (and query) itself for a signed URL whose signature it took off.',
    '    map $rampart_ignore_query $rampart_cache_path {',
    '        "" $request_uri;',
    '        "1" $rampart_request_path;',
    '        default $rampart_ignore_query;',
    '    }',
    '',
    ...geoipBlock(paths.geoip),
    '    # Loopback control server: the version probe that proves a reload, connections, cache purge.',
    '    server {',
    `        listen ${control};`,
    '        access_log off;',
    ...(paths.fastPathModule ? ['        rampart_access_log off;'] : []),
    '        allow 127.0.0.1;',
    '        deny all;',
    '        location = /version {',
    '            default_type text/plain;',
    '            content_by_lua_block { require("rampart.routes").version_answer() }',
    '        }',
    '        # The agent posts a new routes.json here; it reaches the workers through shared memory, never',
    '        # a file they could read (it holds the certificate keys).',
    '        location = /swap {',
    '            default_type text/plain;',
    `            client_max_body_size ${routesMb}m;`,
    `            client_body_buffer_size ${routesMb}m;`,
    '            client_body_in_single_buffer on;',
    '            content_by_lua_block { require("rampart.routes").swap_request() }',
    '        }',
    '        # OCSP responses of the certificates, posted by the agent (tls_ocsp.lua).',
    '        location = /ocsp {',
    '            default_type text/plain;',
    '            client_max_body_size 64k;',
    '            client_body_buffer_size 64k;',
    '            client_body_in_single_buffer on;',
    '            content_by_lua_block { require("rampart.tls_ocsp").put_request() }',
    '        }',
    '        location = /swaps {',
    '            default_type application/json;',
    '            content_by_lua_block { require("rampart.routes").swap_counts() }',
    '        }',
    '        # How many certificates each worker holds parsed (tls.lua): {"parsed": [n, …]}.',
    '        location = /certs {',
    '            default_type application/json;',
    '            content_by_lua_block { rampart_tls.parsed_counts() }',
    '        }',
    '        location = /refused {',
    '            default_type text/plain;',
    '            content_by_lua_block { ngx.print(table.concat(require("rampart.routes").refused, ",")) }',
    '        }',
    '        location = /unprotected {',
    '            default_type text/plain;',
    '            content_by_lua_block { ngx.print(table.concat(require("rampart.routes").unprotected, ",")) }',
    '        }',
    ...(parts.http.bandwidthCaps
      ? [
          '        # Requests open per capped site: {"<site id>": n}.',
          '        location = /bandwidth {',
          '            default_type application/json;',
          '            content_by_lua_block { rampart_router.open_requests() }',
          '        }',
        ]
      : []),
    '        # The state of each checked origin, read by the agent for its status report.',
    '        location = /health-checks {',
    '            default_type application/json;',
    '            content_by_lua_block { require("rampart.healthcheck").report() }',
    '        }',
    '        location = /status {',
    '            stub_status;',
    '        }',
    '        location = /purge {',
    `            proxy_cache_purge ${zone} $http_${PURGE_KEY_HEADER.replaceAll('-', '_')};`,
    '        }',
    '        location / {',
    '            return 404;',
    '        }',
    '    }',
    '',
    ...site.map((line) => (line === '' ? '' : `    ${line}`)),
    '}',
    '',
    'stream {',
    // The format names $rampart_stream_id, which exists only once a stream server sets it.
    ...(hasStreams
      ? [
          `    log_format rampart_stream escape=json '${STREAM_LOG_FORMAT}';`,
          `    access_log ${quote(paths.streamLog, 'streamLog')} rampart_stream buffer=16k flush=1s;`,
        ]
      : []),
    '    include streams/*.conf;',
    '}',
    '',
  ].join('\n');
}

/**
 * The client's country (ISO 3166-1 alpha-2, empty when unknown) as $rampart_country, looked up once
 * a request when a condition or the access log first reads it: `country_code` in the shipped
 * database (ip-location-db), `country.iso_code` in MaxMind's and most commercial ones.
 */
function geoipBlock(geoip: RenderOptions['paths']['geoip']): string[] {
  if (!geoip) return [];
  const path = geoip.countryPath === 'country.iso_code' ? 'country iso_code' : 'country_code';
  return [
    '    # The client address in the GeoIP database (country conditions, the access log).',
    `    geoip2 ${quote(geoip.db, 'geoipDb')} {`,
    `        $rampart_country ${path};`,
    '    }',
    '',
  ];
}

/** An absolute directory without `..` segments, of the characters AbsoluteDir allows. */
function cachePath(value: string): string {
  const path = safeText(value, 'cache_path', 255);
  if (!/^\/[A-Za-z0-9._/-]*$/.test(path) || /(^|\/)\.\.?(\/|$)/.test(path)) {
    throw new RenderRefusal('cache_path', 'an absolute path of letters, digits and . _ - /, without . or .. segments');
  }
  return path;
}
