import { createHash } from 'node:crypto';
import type { EdgeNodeSettings } from '@rampart/contracts';
import { type ErrorPageRoute, errorPageLines, errorPageLocations } from './error-pages.ts';
import { integer, quote, safeText } from './quote.ts';
import { type CacheProfile, cacheLocation } from './site-route.ts';

export interface HttpServerOptions {
  node: EdgeNodeSettings;
  listenAddress: string;
  /** The certificate nginx loads at start-up; every handshake replaces it by SNI, or is refused. */
  defaultCert: { certPath: string; keyPath: string } | null;
  http2: boolean;
  cacheProfiles: CacheProfile[];
  /** ModSecurity's rules of this tree (waf/rules.conf); null when no site has the WAF on. */
  wafRulesFile?: string | null;
  /** Requests no site serves go through the WAF (a profile of their own) before their page. */
  unknownHostWaf?: boolean;
  /** Off: no compression anywhere, whatever the sites say (/config/nginx). */
  gzip: boolean;
  /** The statuses the fleet's error pages (/config/error) replace nginx's own pages of. */
  errorPages?: ErrorPageRoute[];
  /** The proxy cache zone (cacheZone); CACHE_ZONE when absent. */
  cacheZone?: string;
  /** A site is throttled or capped: the router sets $limit_rate, which an origin must not lift. */
  rateLimits?: boolean;
  /** A site has a bandwidth cap: its open requests are counted (BANDWIDTH_DICT) and released when logged. */
  bandwidthCaps?: boolean;
  /**
   * The agent's nginx module is loaded: `location /` serves the sites that need nothing of the Lua
   * router without it, and their origin without the Lua balancer (nginx/ngx_http_rampart_module.c).
   */
  fastPath?: boolean;
}

/** Open requests per capped site, shared by the workers (and by the old ones during a reload). */
export const BANDWIDTH_DICT = 'rampart_open';

/**
 * An origin's `X-Accel-Limit-Rate` would replace the rate the router set: ignored wherever the proxy
 * reads the origin's headers (a location's proxy_ignore_headers replaces the server's).
 */
const IGNORE_LIMIT_RATE = 'X-Accel-Limit-Rate';

export const CACHE_ZONE = 'rampart_cache';

/**
 * The cache zone of a cache directory: nginx refuses a reload that gives a zone another path, so a
 * cache moved by /config/res gets a zone of its own (the default directory keeps `rampart_cache`).
 */
export function cacheZone(customPath: string | null): string {
  if (customPath === null) return CACHE_ZONE;
  return `${CACHE_ZONE}_${createHash('sha256').update(customPath).digest('hex').slice(0, 12)}`;
}

/** Variables the Lua router sets for the proxy directives below; `set` declares them. */
const ROUTE_VARIABLES = [
  'rampart_site_id',
  'rampart_block_reason',
  'rampart_origin_scheme_set',
  'rampart_host_set',
  'rampart_ssl_set',
  'rampart_real_ip_set',
  'rampart_forwarded_for_set',
  'rampart_forwarded_proto_set',
  'rampart_accept_encoding_set',
  'rampart_upgrade',
  'rampart_connection',
  'rampart_ignore_query',
  'rampart_waf_tx',
];

/**
 * Proxy header values: what the router set for the site, else nginx's own value. Maps run in C and
 * only when the proxy reads them, so the router writes nothing for a site without overrides.
 */
const HEADER_MAPS: Array<[string, string, string]> = [
  ['rampart_origin_scheme_set', 'rampart_origin_scheme', 'http'],
  ['rampart_host_set', 'rampart_host_header', '$host'],
  ['rampart_ssl_set', 'rampart_ssl_name', '$host'],
  ['rampart_real_ip_set', 'rampart_real_ip', '$remote_addr'],
  ['rampart_forwarded_for_set', 'rampart_forwarded_for', '$proxy_add_x_forwarded_for'],
  ['rampart_forwarded_proto_set', 'rampart_forwarded_proto', '$scheme'],
  ['rampart_accept_encoding_set', 'rampart_accept_encoding', '$http_accept_encoding'],
];

const PROXY_PASS = 'proxy_pass $rampart_origin_scheme://$rampart_upstream;';
/**
 * The upstream of a location: named, so that a request evaluates no proxy_pass variables (a script,
 * a URL parse and an upstream looked up by name). The `_https` twins reach the origin over TLS; the
 * `_waf` twins keep the variables, since inspection costs a hundred times more.
 */
const ORIGIN_PASS = {
  http: 'proxy_pass http://rampart_origin_http;',
  https: 'proxy_pass https://rampart_origin_https;',
  waf: PROXY_PASS,
};

/** Where the router sends a plain proxied request of a site whose origin is reached over TLS. */
const HTTPS_ORIGIN_LOCATION = '@rampart_https_origin';
/** Where it sends one of a site that sets proxy headers (origin host, X-Real-IP...) of its own. */
const OWN_HEADERS_LOCATION = '@rampart_own_headers';
/**
 * The proxy headers of `location /`, nginx's own values (the server's maps cost a script each). The
 * client's Accept-Encoding passes as it came; an empty value sends no header and drops the client's.
 */
const locationProxyHeaders = (forwarding: string[]) => [
  'proxy_set_header Host $host;',
  ...forwarding,
  'proxy_set_header Upgrade "";',
  'proxy_set_header Connection "";',
];
const FORWARDING_HEADERS = [
  'proxy_set_header X-Real-IP $remote_addr;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
];
/**
 * The same with the agent's nginx module: its $rampart_forwarded holds X-Forwarded-For's value and
 * the X-Real-IP and X-Forwarded-Proto lines, one header's script instead of three
 * (nginx/ngx_http_rampart_forwarded.c); the empty ones drop what a client sent under those names.
 */
const FAST_FORWARDING_HEADERS = [
  'proxy_set_header X-Forwarded-For $rampart_forwarded;',
  'proxy_set_header X-Real-IP "";',
  'proxy_set_header X-Forwarded-Proto "";',
];
const HEADER_FILTER = 'header_filter_by_lua_block { rampart_respond.headers() }';
/** An empty value (no cache lookup) adds no header; `always`: a cached 404 shows its status too. */
const CACHE_STATUS_HEADER = 'add_header X-Cache-Status $upstream_cache_status always;';
/** The twin of a cache location for sites whose responses need the header filter (see routes.lua). */
export const DECORATED_SUFFIX = '_decorated';

/**
 * What makes a location inspect with ModSecurity: the router gives a WAF site's request a
 * transaction id `w<profile>.<site>.<request id>` (the profile rule in waf/rules.conf keys on it, the
 * agent reads the hits back by it) and sends it to the `_waf` twin of the location it would use.
 */
const WAF_INSPECT = ['modsecurity on;', 'modsecurity_transaction_id $rampart_waf_tx;'];
const WAF_LINES = [...WAF_INSPECT, 'error_page 403 = @rampart_waf_denied;'];

/**
 * A named location, and with the WAF in use its twin that inspects requests first (`wafLines`: the
 * WAF's own, with the error pages again since an error_page there replaces the server's).
 */
function named(name: string, body: string[], wafLines: string[] | null): string[] {
  const location = (suffix: string, extra: string[]) => [
    `location ${name}${suffix} {`,
    ...[...extra, ...body].map((line) => `    ${line}`),
    '}',
  ];
  return wafLines ? [...location('', []), '', ...location('_waf', wafLines)] : location('', []);
}

/**
 * The one server every site is served by. Which site a request belongs to is decided by the Lua
 * router from routes.json, so the config is the same size for 1 site or 10,000, and an origin is
 * picked by the Lua balancer of two shared upstreams (plain and TLS connections never share a pool).
 */
export function renderHttpServer(options: HttpServerOptions): string[] {
  const { node } = options;
  const waf = Boolean(options.wafRulesFile);
  const limits = Boolean(options.rateLimits);
  const errorRoutes = options.errorPages ?? [];
  const wafLines = waf ? [...WAF_LINES, ...errorPageLines(errorRoutes, ['403'])] : null;
  // Checked even without an HTTPS listener: the router builds HTTPS redirects with it.
  integer(node.https_port, 'https_port', 1, 65535);
  const listen = (port: number, field: string) => {
    const digits = integer(port, field, 1, 65535);
    return options.listenAddress === '' ? digits : `${safeText(options.listenAddress, 'listen address', 64)}:${digits}`;
  };
  // Kept-alive connections are pooled by address only, so TLS ones (whose SNI is per site) are not
  // kept: a connection opened for one site's origin name must never carry another site's requests.
  // The fast path's peer wraps the Lua balancer and is wrapped by keepalive: between the two.
  const upstream = (name: string, keepalive: boolean) => [
    `upstream ${name} {`,
    '    server 0.0.0.1:1; # placeholder: the balancer picks every peer',
    '    balancer_by_lua_block { rampart_balancer.pick() }',
    ...(keepalive && options.fastPath ? ['    rampart_fast_peer;'] : []),
    ...(keepalive ? ['    keepalive 64;'] : []),
    '}',
  ];
  const tls = options.defaultCert
    ? [
        `listen ${listen(node.https_port, 'https_port')} ssl${options.http2 ? ' http2' : ''} default_server;`,
        `ssl_certificate ${quote(options.defaultCert.certPath, 'cert path')};`,
        `ssl_certificate_key ${quote(options.defaultCert.keyPath, 'key path')};`,
        'ssl_certificate_by_lua_block { rampart_tls.choose() }',
      ]
    : [];
  const server = [
    `listen ${listen(node.http_port, 'http_port')} default_server;`,
    ...tls,
    'server_name "_";',
    // The router's variables are declared in a location no request enters: a request pays only for
    // the ones the router writes; the others read as empty.
    'uninitialized_variable_warn off;',
    '',
    'proxy_set_header Host $rampart_host_header;',
    'proxy_set_header X-Real-IP $rampart_real_ip;',
    'proxy_set_header X-Forwarded-For $rampart_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $rampart_forwarded_proto;',
    'proxy_set_header Accept-Encoding $rampart_accept_encoding;',
    'proxy_set_header Upgrade $rampart_upgrade;',
    'proxy_set_header Connection $rampart_connection;',
    'proxy_ssl_server_name on;',
    'proxy_ssl_name $rampart_ssl_name;',
    `gzip ${options.gzip ? 'on' : 'off'};`,
    ...(limits ? [`proxy_ignore_headers ${IGNORE_LIMIT_RATE};`] : []),
    ...(options.bandwidthCaps ? ['log_by_lua_block { rampart_router.release() }'] : []),
    ...errorPageLines(errorRoutes),
    '',
    // The common case pays for no map and no proxy_pass variable: a site that sets proxy headers
    // of its own, or reaches its origin over TLS, is sent by the router to a twin below instead.
    'location / {',
    ...(options.fastPath ? ['    rampart_route;'] : []),
    '    rewrite_by_lua_block { rampart_router.route() }',
    ...locationProxyHeaders(options.fastPath ? FAST_FORWARDING_HEADERS : FORWARDING_HEADERS).map(
      (line) => `    ${line}`,
    ),
    `    ${ORIGIN_PASS.http}`,
    '}',
    '',
    `location ${OWN_HEADERS_LOCATION} {`,
    `    ${ORIGIN_PASS.http}`,
    '}',
    '',
    `location ${HTTPS_ORIGIN_LOCATION} {`,
    `    ${ORIGIN_PASS.https}`,
    '}',
    '',
    '# Sites with response headers to set (HSTS, their own) go through here; the rest never pay for it.',
    ...named('@rampart_decorated', [PROXY_PASS, HEADER_FILTER], wafLines),
    '',
    ...named('@rampart_websocket', [PROXY_PASS, HEADER_FILTER, 'proxy_read_timeout 300s;'], wafLines),
    '',
    ...(wafLines ? wafLocations(options.wafRulesFile!, Boolean(options.unknownHostWaf), wafLines) : []),
    ...errorPageLocations(errorRoutes),
    'location @rampart_variables {',
    ...[...ROUTE_VARIABLES, ...(options.bandwidthCaps ? ['rampart_capped'] : [])].map((name) => `    set $${name} "";`),
    '    return 404;',
    '}',
    ...options.cacheProfiles.flatMap((profile) => [
      '',
      ...cacheProfileLocation(profile, wafLines, options.cacheZone ?? CACHE_ZONE, limits),
    ]),
  ];
  const maps = [
    ...HEADER_MAPS.flatMap(([from, to, fallback]) => [
      `map $${from} $${to} {`,
      `    "" ${fallback};`,
      `    default $${from};`,
      '}',
    ]),
    'map $rampart_origin_scheme_set $rampart_upstream {',
    '    https rampart_origin_https;',
    '    default rampart_origin_http;',
    '}',
  ];
  return [
    ...maps,
    '',
    ...upstream('rampart_origin_http', true),
    '',
    ...upstream('rampart_origin_https', false),
    '',
    '# Every site: the Lua router finds the site of each request by Host (and the certificate by SNI).',
    'server {',
    ...server.map((line) => (line === '' ? '' : `    ${line}`)),
    '}',
  ];
}

/**
 * The WAF's own locations: the rules (inherited by every location, used only where `modsecurity on`),
 * the plain proxy of WAF sites, the page of a request ModSecurity refused and, when they are
 * inspected, the page of requests no site serves.
 */
function wafLocations(rulesFile: string, unknownHost: boolean, wafLines: string[]): string[] {
  const unknownHostLocation = [
    'location @rampart_unknown_host_waf {',
    ...[...wafLines, 'content_by_lua_block { rampart_respond.unknown_host() }'].map((line) => `    ${line}`),
    '}',
    '',
  ];
  return [
    `modsecurity_rules_file ${quote(rulesFile, 'wafRulesFile')};`,
    '',
    'location @rampart_waf {',
    ...[...wafLines, PROXY_PASS].map((line) => `    ${line}`),
    '}',
    '',
    // ModSecurity stays on here: it writes the audit entry of the refused request at the end.
    'location @rampart_waf_denied {',
    ...[...WAF_INSPECT, 'content_by_lua_block { rampart_respond.waf_denied() }'].map((line) => `    ${line}`),
    '}',
    '',
    ...(unknownHost ? unknownHostLocation : []),
  ];
}

/**
 * The named locations with the proxy_cache settings of one TTL profile (nginx cannot take a TTL from a
 * variable): the cache status is added by nginx itself, so a hit runs no Lua after the router. Each
 * profile has a twin for the choices the router makes per request, named by suffix in this order
 * (routes.lua builds the same names): `_decorated` (the site has response headers to set: the header
 * filter runs), then `_https` (the origin is reached over TLS) or `_waf` (inspected first). The key is
 * `<site>|<host><path and query>`, without the query for rules that ignore it.
 */
function cacheProfileLocation(profile: CacheProfile, waf: string[] | null, zone: string, limits: boolean): string[] {
  const ttl = integer(profile.ttl, 'ttl', 0, 31_536_000);
  const settings = [
    `proxy_cache ${zone};`,
    'proxy_cache_key $rampart_site_id|$host$rampart_cache_path;',
    // A hit is then one read and one write of header and body together: sendfile would add a cork,
    // a separate write of the header and an uncork to every small file.
    'sendfile off;',
  ];
  if (profile.ttl === 0 && !profile.honorOrigin) {
    settings.push('proxy_no_cache 1;', 'proxy_cache_bypass 1;');
  } else {
    settings.push(`proxy_cache_valid 200 203 204 206 301 302 ${ttl}s;`);
    const limitRate = limits ? ` ${IGNORE_LIMIT_RATE}` : '';
    if (!profile.honorOrigin) settings.push(`proxy_ignore_headers Cache-Control Expires X-Accel-Expires${limitRate};`);
    settings.push('proxy_cache_lock on;', 'proxy_cache_use_stale error timeout updating http_502 http_503 http_504;');
  }
  // The origin's own X-Cache-Status would be sent beside the edge's.
  const plainStatus = ['proxy_hide_header X-Cache-Status;', CACHE_STATUS_HEADER];
  const name = cacheLocation(profile);
  const locations: string[] = [];
  for (const decorated of [false, true]) {
    const tail = decorated ? [HEADER_FILTER] : plainStatus;
    const prefix = `${name}${decorated ? DECORATED_SUFFIX : ''}`;
    const twins: Array<[string, string[]]> = [
      [prefix, [ORIGIN_PASS.http, ...settings, ...tail]],
      [`${prefix}_https`, [ORIGIN_PASS.https, ...settings, ...tail]],
    ];
    if (waf) twins.push([`${prefix}_waf`, [...waf, ORIGIN_PASS.waf, ...settings, ...tail]]);
    for (const [locationName, body] of twins) {
      locations.push(...(locations.length > 0 ? [''] : []), ...named(locationName, body, null));
    }
  }
  return locations;
}
