import type { EdgeSnapshot } from '@rampart/contracts';

/**
 * Below this the node's clock is taken as right: a `Date` header carries whole seconds, and a shift
 * of a second or two would only re-render bans for nothing.
 */
export const CLOCK_SLACK_SECONDS = 5;

/**
 * How far the node's clock is ahead of the master's (negative: behind), in whole seconds, from the
 * `Date` header of an answer that took `roundTripMs`: the master wrote the header about half-way
 * through, somewhere in the second it names. Null without a readable header.
 */
export function clockOffsetSeconds(
  dateHeader: string | null,
  receivedAtMs: number,
  roundTripMs: number,
): number | null {
  const masterMs = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
  if (!Number.isFinite(masterMs)) return null;
  const offset = Math.round((receivedAtMs - roundTripMs / 2 - (masterMs + 500)) / 1000);
  return Math.abs(offset) < CLOCK_SLACK_SECONDS ? 0 : offset;
}

/**
 * The snapshot with the times the master set by its clock moved to the node's: the end of every
 * ban and unban, which the edge compares with its own clock (`ngx.time()`). A node 10 minutes ahead
 * would otherwise end a ban 10 minutes early, and drop one with less left at once.
 */
export function inNodeTime(snapshot: EdgeSnapshot, offsetSeconds: number): EdgeSnapshot {
  const protection = snapshot.protection;
  if (offsetSeconds === 0 || !protection) return snapshot;
  return {
    ...snapshot,
    protection: {
      ...protection,
      bans: protection.bans.map((ban) => ({ ...ban, expires_at: Math.max(0, ban.expires_at + offsetSeconds) })),
      unbans: protection.unbans.map((unban) => ({ ...unban, until: Math.max(0, unban.until + offsetSeconds) })),
    },
  };
}
