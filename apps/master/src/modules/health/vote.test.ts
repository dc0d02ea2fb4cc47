import { DEFAULT_NODE_MONITOR, type IpState, type NodeMonitorSettings } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { decide, MASTER_PROBE, nextStreak, nodeProbe, type ProbeStreak, votersFor } from './vote.ts';

const settings: NodeMonitorSettings = {
  ...DEFAULT_NODE_MONITOR,
  failures: 3,
  successes: 2,
  voters: 'master_and_nodes',
};
const NOW = 1_000_000;

/** Feeds each probe's results in turn (true: good) and answers the streaks. */
function streaksAfter(results: Record<string, boolean[]>): ProbeStreak[] {
  return Object.entries(results).map(([probe, outcomes]) => {
    let streak: ProbeStreak | undefined;
    for (const ok of outcomes) streak = nextStreak(streak, probe, ok, ok ? 'HTTP 200' : 'ECONNREFUSED', NOW);
    if (!streak) throw new Error(`no result for ${probe}`);
    return streak;
  });
}

/** An IP of node 9 in a fleet of `peers` + 1 enabled nodes. */
const decided = (state: IpState, results: Record<string, boolean[]>, with_ = settings, peers = 2) =>
  decide(state, votersFor(with_, streaksAfter(results), 9, NOW, peers), with_);

describe('node IP votes', () => {
  it('takes an IP down when a majority failed `failures` times in a row', () => {
    const decision = decided('up', {
      [MASTER_PROBE]: [false, false, false],
      [nodeProbe(1)]: [false, false, false],
      [nodeProbe(2)]: [true, true, true],
    });
    expect(decision?.to).toBe('down');
    expect(decision?.reason).toBe('2 of 3 probes failed 3 times in a row: ECONNREFUSED');
    expect(decision?.votes).toEqual([
      { probe: 'master', ok: false, streak: 3, detail: 'ECONNREFUSED' },
      { probe: 'node:1', ok: false, streak: 3, detail: 'ECONNREFUSED' },
      { probe: 'node:2', ok: true, streak: 3, detail: 'HTTP 200' },
    ]);
  });

  it('keeps an IP up one failure short of the threshold', () => {
    expect(decided('up', { [MASTER_PROBE]: [false, false], [nodeProbe(1)]: [false, false] })).toBeNull();
  });

  it('never lets a master whose own probe fails remove an IP the nodes still reach', () => {
    const failing = Array.from({ length: 10 }, () => false);
    expect(decided('up', { [MASTER_PROBE]: failing, [nodeProbe(1)]: [true, true, true] })).toBeNull();
    expect(
      decided('up', { [MASTER_PROBE]: failing, [nodeProbe(1)]: [true, true], [nodeProbe(2)]: [true, true] }),
    ).toBeNull();
  });

  it('does not switch a flapping IP: each good answer starts the failures again', () => {
    const flapping = [false, false, true, false, false, true, false, false];
    expect(decided('up', { [MASTER_PROBE]: flapping })).toBeNull();
    expect(decided('down', { [MASTER_PROBE]: [true, false, true, false, true] })).toBeNull();
  });

  it('brings a down IP back up after `successes` good answers from a majority', () => {
    expect(decided('down', { [MASTER_PROBE]: [false, true] })).toBeNull();
    const decision = decided('down', { [MASTER_PROBE]: [false, true, true], [nodeProbe(1)]: [true, true] });
    expect(decision?.to).toBe('up');
    expect(decision?.reason).toBe('2 of 2 probes succeeded 2 times in a row');
  });

  it('lets the master decide alone when no node reports, and only the voters the settings name vote', () => {
    expect(decided('up', { [MASTER_PROBE]: [false, false, false] })?.to).toBe('down');
    const masterOnly = { ...settings, voters: 'master' as const };
    expect(
      decided('up', { [MASTER_PROBE]: [false, false, false], [nodeProbe(1)]: [true, true, true] }, masterOnly)?.to,
    ).toBe('down');
    const nodesOnly = { ...settings, voters: 'nodes' as const };
    expect(
      decided(
        'up',
        { [MASTER_PROBE]: [false, false, false], [nodeProbe(1)]: [true], [nodeProbe(2)]: [true] },
        nodesOnly,
      ),
    ).toBeNull();
    expect(decided('up', { [nodeProbe(1)]: [false, false, false] }, nodesOnly, 1)?.to).toBe('down');
  });

  it('counts the master too in nodes mode while fewer nodes vote than a majority of the others', () => {
    const nodesOnly = { ...settings, voters: 'nodes' as const };
    const fails = [false, false, false];
    // The other agent is stopped: the master stands in and its failures take the IP down.
    const alone = decided('up', { [MASTER_PROBE]: fails }, nodesOnly, 1);
    expect(alone?.to).toBe('down');
    expect(alone?.votes.map((vote) => vote.probe)).toEqual(['master']);
    // A one-node fleet: no other node can vote; the master decides.
    expect(decided('up', { [MASTER_PROBE]: fails }, nodesOnly, 0)?.to).toBe('down');
    // Two of four other nodes vote (a majority needs three): the master joins them.
    const joined = decided(
      'up',
      { [MASTER_PROBE]: fails, [nodeProbe(1)]: fails, [nodeProbe(2)]: [true] },
      nodesOnly,
      4,
    );
    expect(joined?.votes.map((vote) => vote.probe)).toEqual(['master', 'node:1', 'node:2']);
    expect(joined?.to).toBe('down');
    // Enough nodes vote: the master's probe does not count.
    expect(decided('up', { [MASTER_PROBE]: fails, [nodeProbe(1)]: [true] }, nodesOnly, 1)).toBeNull();
  });

  it('gives no vote to a node on its own IPs nor to a probe that stopped reporting', () => {
    const own = streaksAfter({ [nodeProbe(9)]: [false, false, false], [MASTER_PROBE]: [true] });
    expect(votersFor(settings, own, 9, NOW, 2).map((voter) => voter.probe)).toEqual(['master']);
    const old = { ...nextStreak(undefined, nodeProbe(1), false, 'x', NOW - 10 * 60_000), streak: 5 };
    expect(votersFor(settings, [old], 9, NOW, 2)).toEqual([]);
    expect(decide('up', [], settings)).toBeNull();
  });
});
