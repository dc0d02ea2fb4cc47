import { isIP } from 'node:net';
import {
  BANDWIDTH_BPS_MAX,
  type Balance,
  type CacheRule,
  DOMAIN_PATTERN,
  type EdgeSite,
  ERROR_PAGE_MAX_LENGTH,
  ERROR_PAGE_STATUSES,
  type ErrorPageStatus,
  type Header,
  type Origin,
  type SiteEnforcement,
  type SiteProtection,
  THROTTLE_KBPS_MAX,
} from '@rampart/contracts';
import { type HealthCheckRoute, healthCheckRoute } from './health-check-route.ts';
import { type HotlinkRoute, hotlinkRoute } from './hotlink-route.ts';
import { integer, RenderRefusal, safeText } from './quote.ts';
import { type RedirectRoute, redirectRoute } from './redirect-route.ts';
import { type UrlAuthRoute, urlAuthRoute } from './url-auth-route.ts';
import { siteSchemaErrors } from './validate.ts';

/**
 * One site as the edge's Lua router reads it from routes.json. Sites are data, not configuration:
 * nothing of a site is ever written into nginx.conf, so a site can neither break nor change the
 * config of another. Values still pass the same guards as when they were written into the config.
 */
export interface SiteRoute {
  id: number;
  hosts: string[];
  http: boolean;
  https: boolean;
  /** Certificate id (a key of routes.json `certs`), when the site listens on HTTPS. */
  cert: string | null;
  force_https: boolean;
  hsts: boolean;
  websocket: boolean;
  gzip: boolean;
  scheme: 'http' | 'https' | 'follow';
  /** Host header and TLS name towards the origin; empty for the visitor's Host. */
  origin_host: string;
  balance: Balance;
  peers: Peer[];
  request_headers: Array<[string, string]>;
  response_headers: Array<[string, string]>;
  cache: CacheRoute[];
  /** The site's protection settings (rule groups, attack mode, whitelist); null for none. */
  protection: SiteProtection | null;
  /** The WAF profile the site's requests are inspected with (waf/rules.conf); absent while the WAF is off. */
  waf?: number;
  /** The site's package is inactive and the policy is `suspend`: every request gets the suspension page, saying why. */
  suspend?: 'expired' | 'suspended' | 'traffic';
  /** The site's package is inactive and the policy is `throttle`: bytes per second per request. */
  rate?: number;
  /** The package's bandwidth cap, bytes per second for the site's requests on this node together. */
  cap?: number;
  /**
   * With `waf`: extensions whose plain GET/HEAD requests (no query, no body, a path of unreserved
   * characters) skip the engine; absent when the site inspects static files too.
   */
  waf_static?: string[];
  /** Hotlink protection; absent while it is off. */
  hotlink?: HotlinkRoute;
  /** The site's own error pages by status; absent when it has none. */
  pages?: Partial<Record<ErrorPageStatus, string>>;
  /** Signed URLs; absent while they are off. */
  url_auth?: UrlAuthRoute;
  /** Redirects and rewrites; absent when the site has none. */
  redirects?: RedirectRoute;
  /** Active health checks of the origins; absent while they are off. */
  health?: HealthCheckRoute;
}

export interface Peer {
  ip: string;
  port: number;
  weight: number;
  backup: boolean;
}

export interface CacheRoute {
  prefix?: string;
  ext?: string;
  /** The named location whose proxy_cache settings the rule's TTL needs (see cacheLocation). */
  location: string;
  ignore_query: boolean;
}

/** A cache TTL profile: one named location per distinct (TTL, honour origin) in the snapshot. */
export interface CacheProfile {
  ttl: number;
  honorOrigin: boolean;
}

export interface SiteRouteContext {
  /** Addresses of origin host names, looked up by the agent before rendering. */
  resolved: ReadonlyMap<string, readonly string[]>;
}

/** Hop-by-hop and framing headers the proxy owns; a custom request header may not set them. */
const RESERVED_REQUEST_HEADERS = new Set([
  'connection',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'proxy-connection',
  'content-length',
]);

const DOMAIN = new RegExp(DOMAIN_PATTERN);
const HOST =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The route of one site, after checking it against the contract schema again. */
export function siteRoute(site: EdgeSite, context: SiteRouteContext): SiteRoute {
  const problem = siteSchemaErrors(site);
  if (problem) throw new RenderRefusal('site', problem);
  return siteRouteBody(site, context);
}

/** The route of one site; every value still passes through the guards. */
export function siteRouteBody(site: EdgeSite, context: SiteRouteContext): SiteRoute {
  const id = Number(integer(site.id, 'id', 1));
  const hosts = site.domains.map((domain, i) => {
    const host = safeText(domain, `domains[${i}]`, 253);
    if (!DOMAIN.test(host)) throw new RenderRefusal(`domains[${i}]`, 'not a lower-case domain name');
    return host;
  });
  if (hosts.length === 0) throw new RenderRefusal('domains', 'at least one domain');
  if (site.balance !== 'round_robin' && site.balance !== 'weighted' && site.balance !== 'ip_hash') {
    throw new RenderRefusal('balance', 'unknown balancing');
  }
  const scheme = site.origin_protocol;
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'follow') {
    throw new RenderRefusal('origin_protocol', 'must be http, https or follow');
  }
  const originHost = safeText(site.origin_host, 'origin_host', 253);
  if (originHost !== '' && !HOST.test(originHost)) {
    throw new RenderRefusal('origin_host', 'a host name');
  }
  const requestHeaders = site.request_headers.map((header, i): [string, string] => {
    const field = `request_headers[${i}]`;
    const name = headerName(header, field);
    if (RESERVED_REQUEST_HEADERS.has(name.toLowerCase())) throw new RenderRefusal(`${field}.name`, 'reserved header');
    return [name, headerValue(header, field)];
  });
  const responseHeaders = site.response_headers.map((header, i): [string, string] => {
    const field = `response_headers[${i}]`;
    return [headerName(header, field), headerValue(header, field)];
  });
  return {
    id,
    hosts,
    http: site.http_listen === true,
    https: site.https_listen === true,
    cert: site.https_listen && site.cert_id !== null ? integer(site.cert_id, 'cert_id', 1) : null,
    force_https: site.force_https === true && site.http_listen === true && site.https_listen === true,
    hsts: site.hsts === true && site.https_listen === true,
    websocket: site.websocket === true,
    gzip: site.gzip === true,
    scheme,
    origin_host: originHost,
    balance: site.balance,
    peers: site.origins.flatMap((origin, i) => peersOf(origin, `origins[${i}]`, site.balance, context)),
    request_headers: requestHeaders,
    response_headers: responseHeaders,
    cache: site.cache_rules.map((rule, i) => cacheRoute(rule, `cache_rules[${i}]`)),
    protection: site.protection ?? null,
    ...(site.hotlink?.enabled ? { hotlink: hotlinkRoute(site.hotlink, hosts) } : {}),
    ...sitePages(site),
    ...(site.url_auth?.enabled ? { url_auth: urlAuthRoute(site.url_auth) } : {}),
    ...redirectsOf(site, hosts),
    ...(site.health_check?.enabled
      ? {
          health: healthCheckRoute(site.health_check, {
            origin_host: originHost,
            origin_protocol: scheme,
            http_listen: site.http_listen === true,
            hosts,
          }),
        }
      : {}),
    ...enforcementOf(site.enforcement),
    ...(site.bandwidth_bps === undefined
      ? {}
      : { cap: Number(integer(site.bandwidth_bps, 'bandwidth_bps', 1, BANDWIDTH_BPS_MAX)) }),
  };
}

function redirectsOf(site: EdgeSite, hosts: readonly string[]): Pick<SiteRoute, 'redirects'> {
  const route = redirectRoute(site.redirects, hosts);
  return route ? { redirects: route } : {};
}

/** The site's own error pages, each checked again against the statuses and the length limit. */
function sitePages(site: EdgeSite): Pick<SiteRoute, 'pages'> {
  const entries = Object.entries(site.error_pages ?? {});
  if (entries.length === 0) return {};
  const pages: Partial<Record<ErrorPageStatus, string>> = {};
  for (const [status, html] of entries) {
    if (!(ERROR_PAGE_STATUSES as readonly string[]).includes(status)) {
      throw new RenderRefusal(`error_pages.${status}`, 'not a status with a page');
    }
    if (typeof html !== 'string' || html.length === 0 || html.length > ERROR_PAGE_MAX_LENGTH) {
      throw new RenderRefusal(`error_pages.${status}`, `an HTML page of 1 to ${ERROR_PAGE_MAX_LENGTH} characters`);
    }
    pages[status as ErrorPageStatus] = html;
  }
  return { pages };
}

const SUSPEND_REASONS = new Set(['expired', 'suspended', 'traffic']);

/** The suspension page's reason, or the throttle in bytes per second; nothing while the package is active. */
function enforcementOf(enforcement: SiteEnforcement | undefined): Pick<SiteRoute, 'suspend' | 'rate'> {
  if (enforcement === undefined) return {};
  if (enforcement.mode === 'suspend') {
    if (!SUSPEND_REASONS.has(enforcement.reason)) throw new RenderRefusal('enforcement.reason', 'unknown reason');
    return { suspend: enforcement.reason };
  }
  if (enforcement.mode === 'throttle') {
    return { rate: Number(integer(enforcement.rate_kbps, 'enforcement.rate_kbps', 1, THROTTLE_KBPS_MAX)) * 1024 };
  }
  throw new RenderRefusal('enforcement.mode', 'must be suspend or throttle');
}

/** The named location serving a TTL profile. */
export function cacheLocation(profile: CacheProfile): string {
  if (profile.ttl === 0 && !profile.honorOrigin) return '@rampart_nocache';
  return `@rampart_cache_${profile.ttl}${profile.honorOrigin ? '_origin' : ''}`;
}

export function profileOf(location: string): CacheProfile {
  if (location === '@rampart_nocache') return { ttl: 0, honorOrigin: false };
  const match = /^@rampart_cache_(\d+)(_origin)?$/.exec(location);
  if (!match) throw new RenderRefusal('cache location', 'unknown');
  return { ttl: Number(match[1]), honorOrigin: match[2] !== undefined };
}

function peersOf(origin: Origin, field: string, balance: Balance, context: SiteRouteContext): Peer[] {
  const port = Number(integer(origin.port, `${field}.port`, 1, 65535));
  const weight = balance === 'weighted' ? Number(integer(origin.weight, `${field}.weight`, 1, 100)) : 1;
  const address = safeText(origin.address, `${field}.address`, 253);
  let ips: readonly string[];
  if (isIP(address) !== 0) ips = [address];
  else {
    if (!HOST.test(address)) throw new RenderRefusal(`${field}.address`, 'not a host');
    const found = context.resolved.get(address);
    if (!found || found.length === 0) throw new RenderRefusal(`${field}.address`, `${address} does not resolve`);
    ips = found;
  }
  return ips.map((ip) => {
    if (isIP(ip) === 0) throw new RenderRefusal(`${field}.address`, `${address} resolved to a non-address`);
    return { ip, port, weight, backup: origin.backup === true };
  });
}

function headerName(header: Header, field: string): string {
  const name = safeText(header.name, `${field}.name`, 64);
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(name)) throw new RenderRefusal(`${field}.name`, 'not a header name');
  return name;
}

function headerValue(header: Header, field: string): string {
  return safeText(header.value, `${field}.value`, 1024);
}

function cacheRoute(rule: CacheRule, field: string): CacheRoute {
  const ttl = Number(integer(rule.ttl, `${field}.ttl`, 0, 31_536_000));
  const location = cacheLocation({ ttl, honorOrigin: rule.honor_origin === true });
  const ignoreQuery = rule.ignore_query === true;
  if (rule.match === 'prefix') {
    const prefix = safeText(rule.value, `${field}.value`, 512);
    if (!/^\/[A-Za-z0-9._~!*+,=:@%/-]*$/.test(prefix)) throw new RenderRefusal(`${field}.value`, 'not a path prefix');
    return { prefix, location, ignore_query: ignoreQuery };
  }
  if (rule.match === 'extension') {
    const extension = safeText(rule.value, `${field}.value`, 16);
    if (!/^[A-Za-z0-9]{1,16}$/.test(extension)) throw new RenderRefusal(`${field}.value`, 'not a file extension');
    return { ext: extension.toLowerCase(), location, ignore_query: ignoreQuery };
  }
  throw new RenderRefusal(`${field}.match`, 'must be prefix or extension');
}
