import {
  BANDWIDTH_BPS_MAX,
  type EdgeEnforcementSettings,
  type EnforcementReason,
  type SiteEnforcement,
  type StreamEnforcement,
} from '@rampart/contracts';
import type { Db } from './catalogue.repository.ts';
import { limitsOfUserPackages } from './user-packages.repository.ts';

/**
 * What the edges do with a site or stream of a user package, from the package's state and the
 * operator's policy (`global-0-edge-enforcement`). A change of state is written with a new config
 * version (package-expiry.ts, package-traffic.ts), so every snapshot reflects the current one.
 */

/** The user package a site or stream counts against, as the snapshot query reads it (nulls: none). */
export interface PackageStanding {
  user_package_id: number | null;
  package_state: string | null;
  traffic_exceeded: number | null;
}

/** Why the package's sites are enforced, or null while it is active and within its traffic (or there is none). */
export function enforcementReason(standing: PackageStanding): EnforcementReason | null {
  if (standing.user_package_id === null) return null;
  if (standing.package_state === 'suspended') return 'suspended';
  if (standing.package_state !== 'active') return 'expired';
  return standing.traffic_exceeded === 1 ? 'traffic' : null;
}

export function siteEnforcement(
  reason: EnforcementReason | null,
  policy: EdgeEnforcementSettings,
): SiteEnforcement | undefined {
  if (reason === null) return undefined;
  return policy.policy === 'throttle'
    ? { mode: 'throttle', rate_kbps: policy.throttle_kbps }
    : { mode: 'suspend', reason };
}

/** A stream under `suspend` has no page to show (TCP): null means it leaves the snapshot. */
export function streamEnforcement(
  reason: EnforcementReason | null,
  policy: EdgeEnforcementSettings,
): StreamEnforcement | undefined | null {
  if (reason === null) return undefined;
  return policy.policy === 'throttle' ? { mode: 'throttle', rate_kbps: policy.throttle_kbps } : null;
}

const BYTES_PER_MBIT = 125_000;

/**
 * Bytes per second each of these user packages may send (package plus bandwidth packs in force);
 * a package without a cap (0 Mbit/s) is not in the map.
 */
export async function bandwidthCaps(db: Db, ids: readonly number[], now = Date.now()): Promise<Map<number, number>> {
  const caps = new Map<number, number>();
  if (ids.length === 0) return caps;
  const rows = await db
    .selectFrom('user_packages')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  for (const [id, limits] of await limitsOfUserPackages(db, rows, now)) {
    if (limits.bandwidth_mbps > 0) caps.set(id, Math.min(limits.bandwidth_mbps * BYTES_PER_MBIT, BANDWIDTH_BPS_MAX));
  }
  return caps;
}
