import { randomUUID } from 'node:crypto';
import type { IpState, NodeMonitorSettings } from '@rampart/contracts';
import { type ProbeResult, probeIp } from '@rampart/contracts/health-probe';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { claimLease, releaseLease } from '../cluster/leases.ts';
import type { Notifier } from '../messages/notifier.ts';
import { readConfig } from '../settings/configs.ts';
import {
  adminIds,
  applySwitch,
  enabledNodeCount,
  listProbeTargets,
  type ProbeTarget,
  placesOfIp,
  probeStreaks,
  saveProbeStreaks,
  syncIpStates,
} from './health.repository.ts';
import { NODE_MONITOR } from './monitor-settings.ts';
import {
  decide,
  freshForMs,
  MASTER_PROBE,
  masterStandsIn,
  nextStreak,
  nodeVoterCount,
  type ProbeStreak,
  votersFor,
} from './vote.ts';

/** A node IP that switched, and the line groups whose DNS answers change with it. */
export interface IpSwitchEvent {
  ip: string;
  nodeId: number;
  nodeName: string;
  from: IpState;
  to: IpState;
  reason: string;
  groupIds: number[];
}

export interface HealthCheckerOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  notifier: Pick<Notifier, 'notify'>;
  /** Called each round with its switches (DNS republishing); when it throws, they come again next round. */
  onSwitch?: ((switches: IpSwitchEvent[]) => Promise<void>) | undefined;
  /** This master's name in the lease; a new one per start by default. */
  holder?: string | undefined;
}

export const HEALTH_LEASE = 'node-health';
const PARALLEL_PROBES = 64;
const SETTINGS_POLL_MS = 1000;

/** Runs `work` on every item with at most `limit` at a time, answers in order. */
async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The health checker: every interval, the master holding the lease probes every enabled node IP,
 * merges its results with the nodes' reports, and switches IPs whose voters agree. Each switch is
 * stored with its log row, told to the admins (node_failover) and handed to `onSwitch`.
 */
export function startHealthChecker(options: HealthCheckerOptions) {
  const { db, log, notifier } = options;
  const holder = options.holder ?? randomUUID();
  const abort = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  async function probeAsMaster(
    targets: readonly ProbeTarget[],
    settings: NodeMonitorSettings,
    streaks: Map<string, ProbeStreak[]>,
  ) {
    const results = await eachLimited(targets, PARALLEL_PROBES, (target) =>
      probeIp(target.ip, target.port, settings, abort.signal).catch(
        (error: unknown): ProbeResult => ({
          ok: false,
          detail: error instanceof Error ? error.message : 'probe failed',
        }),
      ),
    );
    if (stopped) return;
    const at = Date.now();
    const updates = targets.map((target, index) => {
      const result = results[index] ?? { ok: false, detail: 'not probed' };
      const list = streaks.get(target.ip) ?? [];
      // A streak from the last time the master stood in (nodes mode) starts over once it is stale.
      const previous = list.find(
        (streak) => streak.probe === MASTER_PROBE && streak.updatedAt >= at - freshForMs(settings),
      );
      const streak = nextStreak(previous, MASTER_PROBE, result.ok, result.detail, at);
      streaks.set(target.ip, [...list.filter((entry) => entry.probe !== MASTER_PROBE), streak]);
      return { ip: target.ip, streak };
    });
    await saveProbeStreaks(db, updates);
  }

  async function tell(event: IpSwitchEvent) {
    const where = event.nodeName ? ` (node ${event.nodeName})` : '';
    const notice = {
      title: `Node IP ${event.ip} is ${event.to}`,
      body: `${event.ip}${where} switched from ${event.from} to ${event.to}: ${event.reason}.`,
    };
    for (const userId of await adminIds(db)) {
      try {
        await notifier.notify(userId, 'node_failover', notice);
      } catch (error) {
        log.warn({ err: error, userId, ip: event.ip }, 'a failover message was not delivered');
      }
    }
  }

  /** One round with the settings read for it. */
  async function round(settings: NodeMonitorSettings): Promise<void> {
    const now = Date.now();
    const leaseMs = Math.max(3 * (settings.interval_seconds + settings.timeout_seconds) * 1000, 3000);
    if (!(await claimLease(db, HEALTH_LEASE, holder, now, leaseMs))) return;
    const targets = await listProbeTargets(db);
    await syncIpStates(db, targets, now);
    const streaks = await probeStreaks(db);
    const peers = Math.max(0, (await enabledNodeCount(db)) - 1);
    // With the nodes as voters, the master probes the IPs too few of them vote on.
    const probed =
      settings.voters === 'nodes'
        ? targets.filter((target) =>
            masterStandsIn(nodeVoterCount(settings, streaks.get(target.ip) ?? [], target.nodeId, now), peers),
          )
        : targets;
    if (probed.length > 0) await probeAsMaster(probed, settings, streaks);
    if (stopped) return;

    const states = new Map(
      (await db.selectFrom('node_ip_states').select(['ip', 'state']).execute()).map((row) => [row.ip, row.state]),
    );
    const switches: IpSwitchEvent[] = [];
    const decidedAt = Date.now();
    for (const target of targets) {
      const from: IpState = states.get(target.ip) === 'down' ? 'down' : 'up';
      const voters = votersFor(settings, streaks.get(target.ip) ?? [], target.nodeId, decidedAt, peers);
      const decision = decide(from, voters, settings);
      if (!decision) continue;
      const places = await placesOfIp(db, target.ip);
      const change = {
        ip: target.ip,
        nodeId: target.nodeId,
        nodeName: target.nodeName,
        from,
        to: decision.to,
        reason: decision.reason,
        votes: decision.votes,
        lineGroup: places.lineGroup,
        line: places.line,
      };
      if (!(await applySwitch(db, change, decidedAt))) continue;
      log.info({ ip: target.ip, from, to: decision.to, reason: decision.reason }, 'node IP switched');
      switches.push({ ...change, groupIds: places.groupIds });
    }
    await handOver(switches);
    for (const event of switches) await tell(event);
  }

  // Switches whose onSwitch failed (a DNS API away): handed over again with the next round's.
  let unpublished: IpSwitchEvent[] = [];
  async function handOver(switches: IpSwitchEvent[]) {
    const due = [...unpublished, ...switches];
    if (due.length === 0 || !options.onSwitch) return;
    try {
      await options.onSwitch(due);
      unpublished = [];
    } catch (error) {
      unpublished = due;
      log.error({ err: error }, 'republishing DNS after a node IP switch failed; trying again next round');
    }
  }

  // The settings are read at least every second, so a shorter interval or a re-enabled checker
  // takes effect at once rather than after the old interval.
  let lastRoundAt = 0;
  const loop = () => {
    current = (async () => {
      let waitMs = SETTINGS_POLL_MS;
      try {
        const { value: settings } = await readConfig(db, NODE_MONITOR);
        const intervalMs = settings.interval_seconds * 1000;
        if (settings.enabled && Date.now() >= lastRoundAt + intervalMs) {
          lastRoundAt = Date.now();
          await round(settings);
        }
        waitMs = Math.min(SETTINGS_POLL_MS, Math.max(0, lastRoundAt + intervalMs - Date.now()));
      } catch (error) {
        if (!stopped) log.error({ err: error }, 'node health round failed');
      }
      if (stopped) return;
      timer = setTimeout(loop, waitMs);
      timer.unref();
    })();
  };
  loop();

  return {
    holder,
    /** Stops at once: probes in flight are abandoned, the lease is let go for another master. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await current;
      await releaseLease(db, HEALTH_LEASE, holder).catch(() => undefined);
    },
  };
}
