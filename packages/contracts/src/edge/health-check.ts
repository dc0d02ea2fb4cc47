import { type Static, Type } from 'typebox';

/**
 * Active health checks of a site's origins, run by every edge node (once per node, not per worker):
 * an HTTP request to each origin every `interval` seconds. An origin that fails `failures` checks in
 * a row is taken out of the node's balancing before a visitor meets it; it comes back after
 * `successes` good answers in a row. When every origin of a site is down, all of them are used.
 */
export const HEALTH_CHECK_PATH_PATTERN = '^/[A-Za-z0-9._~!*+,=:@%/-]*(?:\\?[A-Za-z0-9._~!*+,=:@%/&-]*)?$';
/** Empty, or a host name (as HostHeader). */
export const HEALTH_CHECK_HOST_PATTERN =
  '^(?:|(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)$';
export const HEALTH_CHECK_MAX_STATUSES = 16;
export const HEALTH_CHECK_MAX_INTERVAL = 3600;
export const HEALTH_CHECK_MAX_TIMEOUT = 60;
export const HEALTH_CHECK_MAX_COUNT = 10;

export const SiteHealthCheck = Type.Object(
  {
    enabled: Type.Boolean(),
    path: Type.String({
      maxLength: 1024,
      pattern: HEALTH_CHECK_PATH_PATTERN,
      description:
        'the path (and query) requested, starting with /: letters, digits and . _ ~ ! * + , = : @ % / - (and & in the query)',
    }),
    /** Empty: the site's origin Host, else its first domain that is no wildcard, else the origin's address. */
    host: Type.String({
      maxLength: 253,
      pattern: HEALTH_CHECK_HOST_PATTERN,
      description: "empty (the site's origin host, else its first domain) or the Host header the check sends",
    }),
    statuses: Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), {
      minItems: 1,
      maxItems: HEALTH_CHECK_MAX_STATUSES,
      uniqueItems: true,
      description: `1 to ${HEALTH_CHECK_MAX_STATUSES} HTTP statuses (100 to 599) that count as healthy`,
    }),
    interval: Type.Integer({
      minimum: 1,
      maximum: HEALTH_CHECK_MAX_INTERVAL,
      description: `seconds between two checks of an origin, 1 to ${HEALTH_CHECK_MAX_INTERVAL}`,
    }),
    timeout: Type.Integer({
      minimum: 1,
      maximum: HEALTH_CHECK_MAX_TIMEOUT,
      description: `seconds a check may take (connect, TLS, answer), 1 to ${HEALTH_CHECK_MAX_TIMEOUT}, at most the interval`,
    }),
    failures: Type.Integer({
      minimum: 1,
      maximum: HEALTH_CHECK_MAX_COUNT,
      description: `failed checks in a row that take an origin out, 1 to ${HEALTH_CHECK_MAX_COUNT}`,
    }),
    successes: Type.Integer({
      minimum: 1,
      maximum: HEALTH_CHECK_MAX_COUNT,
      description: `good checks in a row that put an origin back, 1 to ${HEALTH_CHECK_MAX_COUNT}`,
    }),
  },
  { additionalProperties: false },
);
export type SiteHealthCheck = Static<typeof SiteHealthCheck>;

/** A site that never set it: off (passive failover only). */
export const DEFAULT_SITE_HEALTH_CHECK: SiteHealthCheck = {
  enabled: false,
  path: '/',
  host: '',
  statuses: [200],
  interval: 5,
  timeout: 2,
  failures: 3,
  successes: 2,
};

/** One origin address as one node's checks see it. */
export const OriginHealthEntry = Type.Object(
  {
    site_id: Type.Integer({ minimum: 1 }),
    address: Type.String({
      maxLength: 64,
      description: 'the IP address checked (an origin name is checked at each of its addresses)',
    }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    up: Type.Boolean({ description: 'whether the node sends visitors to it' }),
    checked_at: Type.Integer({
      minimum: 0,
      description: 'seconds since the epoch of the last check; 0: not checked yet',
    }),
    error: Type.String({ maxLength: 256, description: 'why the last check failed; empty when it passed' }),
  },
  { additionalProperties: false },
);
export type OriginHealthEntry = Static<typeof OriginHealthEntry>;

/** GET /v1/sites/{id}/origin-health: each origin address's state on each node that reported it. */
export const OriginHealth = Type.Object({
  enabled: Type.Boolean({ description: "whether the site's health check is on" }),
  nodes: Type.Array(
    Type.Object({
      node_id: Type.Integer(),
      name: Type.String({ description: "the node's name" }),
      reported_at: Type.String({ description: 'when the node last reported these states' }),
      origins: Type.Array(
        Type.Object({
          address: Type.String({ description: 'the IP address checked' }),
          port: Type.Integer(),
          up: Type.Boolean({ description: 'in use (true) or taken out by the checks (false)' }),
          checked_at: Type.Union([Type.String(), Type.Null()], { description: 'the last check; null: not yet' }),
          error: Type.String({ description: 'why the last check failed; empty when it passed' }),
        }),
      ),
    }),
  ),
});
export type OriginHealth = Static<typeof OriginHealth>;
