import { type Static, Type } from 'typebox';

/**
 * What the edges do with the sites and streams of a user package that is expired, suspended or past
 * its monthly traffic (`global-0-edge-enforcement`), and how that reaches a snapshot. The master
 * decides per site from the package's state and this policy; the agent only renders the outcome.
 */

export const THROTTLE_KBPS_MAX = 102_400;

export const ThrottleKbps = Type.Integer({
  minimum: 1,
  maximum: THROTTLE_KBPS_MAX,
  description: `KB/s per connection from 1 to ${THROTTLE_KBPS_MAX}`,
});

export const EnforcementPolicy = Type.Union([Type.Literal('suspend'), Type.Literal('throttle')], {
  description: 'suspend (a page saying the service is suspended) or throttle (served at throttle_kbps)',
});
export type EnforcementPolicy = Static<typeof EnforcementPolicy>;

/** `global-0-edge-enforcement`: the operator's policy for sites of inactive packages. */
export const EdgeEnforcementSettings = Type.Object(
  { policy: EnforcementPolicy, throttle_kbps: ThrottleKbps },
  { additionalProperties: false },
);
export type EdgeEnforcementSettings = Static<typeof EdgeEnforcementSettings>;

export const DEFAULT_EDGE_ENFORCEMENT: EdgeEnforcementSettings = { policy: 'suspend', throttle_kbps: 64 };

/** Why a package's sites are enforced: its term ended, an admin suspended it, or its month's traffic is used up. */
export const EnforcementReason = Type.Union(
  [Type.Literal('expired'), Type.Literal('suspended'), Type.Literal('traffic')],
  {
    description: 'expired, suspended or traffic',
  },
);
export type EnforcementReason = Static<typeof EnforcementReason>;

const Throttle = Type.Object(
  { mode: Type.Literal('throttle'), rate_kbps: ThrottleKbps },
  { additionalProperties: false },
);

/** A site of an inactive package: answered with the suspension page, or served throttled. */
export const SiteEnforcement = Type.Union(
  [
    Type.Object({ mode: Type.Literal('suspend'), reason: EnforcementReason }, { additionalProperties: false }),
    Throttle,
  ],
  { description: '{mode: suspend, reason} or {mode: throttle, rate_kbps}' },
);
export type SiteEnforcement = Static<typeof SiteEnforcement>;

/** A stream of an inactive package under `throttle` (under `suspend` it leaves the snapshot: TCP has no page). */
export const StreamEnforcement = Throttle;
export type StreamEnforcement = Static<typeof StreamEnforcement>;

/** 10 Tbit/s: above any package's bandwidth, far below what a 64-bit size holds. */
export const BANDWIDTH_BPS_MAX = 1_250_000_000_000;

/** A site's share of its package's bandwidth, in bytes per second (absent: unlimited). */
export const BandwidthBps = Type.Integer({
  minimum: 1,
  maximum: BANDWIDTH_BPS_MAX,
  description: `bytes per second from 1 to ${BANDWIDTH_BPS_MAX}`,
});
