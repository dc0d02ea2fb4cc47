import {
  HEALTH_CHECK_MAX_COUNT,
  HEALTH_CHECK_MAX_INTERVAL,
  HEALTH_CHECK_MAX_STATUSES,
  HEALTH_CHECK_MAX_TIMEOUT,
  HEALTH_CHECK_PATH_PATTERN,
  type SiteHealthCheck,
} from '@rampart/contracts';
import { integer, RenderRefusal, safeText } from './quote.ts';

/**
 * A site's origin health check as healthcheck.lua reads it from routes.json: the Host it sends
 * already chosen, the scheme it connects with, the counts by their Lua names. The request itself is
 * put together on the edge from these values only; nothing of it reaches nginx.conf.
 */
export interface HealthCheckRoute {
  path: string;
  /** The Host header (and TLS name); empty: the origin's address. */
  host: string;
  statuses: number[];
  interval: number;
  timeout: number;
  /** Failed checks in a row that take an origin out. */
  fall: number;
  /** Good checks in a row that put it back. */
  rise: number;
  tls: boolean;
}

const PATH = new RegExp(HEALTH_CHECK_PATH_PATTERN);
const HOST =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export interface HealthCheckSite {
  origin_host: string;
  origin_protocol: 'http' | 'https' | 'follow';
  http_listen: boolean;
  /** The site's domains, checked already. */
  hosts: readonly string[];
}

/** The route of an enabled check; undefined when it is off or absent. */
export function healthCheckRoute(
  check: SiteHealthCheck | undefined,
  site: HealthCheckSite,
): HealthCheckRoute | undefined {
  if (!check?.enabled) return undefined;
  const path = safeText(check.path, 'health_check.path', 1024);
  if (!PATH.test(path)) throw new RenderRefusal('health_check.path', 'a path starting with /');
  const own = safeText(check.host, 'health_check.host', 253);
  if (own !== '' && !HOST.test(own)) throw new RenderRefusal('health_check.host', 'a host name');
  // The Host the proxy would send: the site's origin host, else one of its names (a wildcard is none).
  const host = own || site.origin_host || (site.hosts.find((name) => !name.startsWith('*.')) ?? '');
  if (!Array.isArray(check.statuses) || check.statuses.length === 0) {
    throw new RenderRefusal('health_check.statuses', 'at least one status');
  }
  if (check.statuses.length > HEALTH_CHECK_MAX_STATUSES) {
    throw new RenderRefusal('health_check.statuses', `at most ${HEALTH_CHECK_MAX_STATUSES}`);
  }
  const statuses = [
    ...new Set(check.statuses.map((status, i) => Number(integer(status, `health_check.statuses[${i}]`, 100, 599)))),
  ];
  const interval = Number(integer(check.interval, 'health_check.interval', 1, HEALTH_CHECK_MAX_INTERVAL));
  const timeout = Number(integer(check.timeout, 'health_check.timeout', 1, HEALTH_CHECK_MAX_TIMEOUT));
  return {
    path,
    host,
    statuses,
    interval,
    timeout: Math.min(timeout, interval),
    fall: Number(integer(check.failures, 'health_check.failures', 1, HEALTH_CHECK_MAX_COUNT)),
    rise: Number(integer(check.successes, 'health_check.successes', 1, HEALTH_CHECK_MAX_COUNT)),
    // `follow` reaches the origin with the visitor's scheme: checked as a visitor on HTTP would be, unless the site has no HTTP.
    tls: site.origin_protocol === 'https' || (site.origin_protocol === 'follow' && !site.http_listen),
  };
}
