import type { IpState, NodeMonitorSettings, ProbeVote } from '@rampart/contracts';

/** One probe's latest result for an IP and how many results in a row had that outcome. */
export interface ProbeStreak {
  probe: string;
  ok: boolean;
  streak: number;
  detail: string;
  updatedAt: number;
}

export const MASTER_PROBE = 'master';
export const nodeProbe = (nodeId: number) => `node:${nodeId}`;

/** The streak after one more result: the same outcome extends it, the other starts a new one. */
export function nextStreak(previous: ProbeStreak | undefined, probe: string, ok: boolean, detail: string, now: number) {
  const streak = previous && previous.ok === ok ? previous.streak + 1 : 1;
  return { probe, ok, streak, detail, updatedAt: now };
}

/** How long a probe's last result counts: a probe silent for longer (an agent gone) has no vote. */
export const freshForMs = (settings: NodeMonitorSettings) =>
  Math.max(3 * (settings.interval_seconds + settings.timeout_seconds) * 1000, 2000);

/** How many voters make a strict majority of `count`. */
export const majorityOf = (count: number) => Math.floor(count / 2) + 1;

/**
 * The probes that vote on an IP of node `nodeId`: the master's and/or the other nodes', each only
 * while its last result is fresh. A node never votes on its own IPs. With the nodes as the only
 * voters, the master's probe counts too while fewer of the `peers` other enabled nodes vote than
 * a majority of them (agents stopped, a one-node fleet): an IP is never left without a decision.
 */
export function votersFor(
  settings: NodeMonitorSettings,
  streaks: readonly ProbeStreak[],
  nodeId: number,
  now: number,
  peers: number,
): ProbeStreak[] {
  const oldest = now - freshForMs(settings);
  const fresh = streaks.filter((streak) => streak.updatedAt >= oldest && streak.probe !== nodeProbe(nodeId));
  const nodes = fresh.filter((streak) => streak.probe !== MASTER_PROBE);
  const master = fresh.filter((streak) => streak.probe === MASTER_PROBE);
  if (settings.voters === 'master') return master;
  if (settings.voters === 'master_and_nodes') return [...master, ...nodes];
  return masterStandsIn(nodes.length, peers) ? [...master, ...nodes] : nodes;
}

/** In `nodes` mode: whether the master probes an IP because too few of the other nodes vote on it. */
export function masterStandsIn(nodeVoters: number, peers: number): boolean {
  return nodeVoters < majorityOf(peers);
}

/** The other nodes' fresh votes on an IP of node `nodeId`. */
export function nodeVoterCount(
  settings: NodeMonitorSettings,
  streaks: readonly ProbeStreak[],
  nodeId: number,
  now: number,
): number {
  const oldest = now - freshForMs(settings);
  return streaks.filter(
    (streak) => streak.updatedAt >= oldest && streak.probe !== MASTER_PROBE && streak.probe !== nodeProbe(nodeId),
  ).length;
}

export interface Decision {
  to: IpState;
  reason: string;
  votes: ProbeVote[];
}

const times = (count: number) => (count === 1 ? 'once' : `${count} times`);

const votesOf = (voters: readonly ProbeStreak[]): ProbeVote[] =>
  voters.map(({ probe, ok, streak, detail }) => ({ probe, ok, streak, detail }));

/**
 * Whether an IP switches: down when a strict majority of the voters failed `failures` times in a
 * row, up again when a strict majority succeeded `successes` times in a row. A lone failing voter
 * among good ones (a master with a broken uplink) never takes an IP down; no voter, no decision.
 */
export function decide(state: IpState, voters: readonly ProbeStreak[], settings: NodeMonitorSettings): Decision | null {
  if (voters.length === 0) return null;
  const needed = majorityOf(voters.length);
  if (state === 'up') {
    const failing = voters.filter((voter) => !voter.ok && voter.streak >= settings.failures);
    if (failing.length < needed) return null;
    const detail = failing[0]?.detail ? `: ${failing[0].detail}` : '';
    return {
      to: 'down',
      reason: `${failing.length} of ${voters.length} probes failed ${times(settings.failures)} in a row${detail}`,
      votes: votesOf(voters),
    };
  }
  const passing = voters.filter((voter) => voter.ok && voter.streak >= settings.successes);
  if (passing.length < needed) return null;
  return {
    to: 'up',
    reason: `${passing.length} of ${voters.length} probes succeeded ${times(settings.successes)} in a row`,
    votes: votesOf(voters),
  };
}
