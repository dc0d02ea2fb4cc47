import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sweepAbandonedChunks } from '../blobs/blob-store.ts';
import { releaseLease } from '../cluster/leases.ts';
import { advanceRound, ROLLOUT_LEASE } from './agent-upgrades.service.ts';
import type { BackgroundWork } from './background.ts';
import type { CommandBus } from './command-bus.ts';
import { importLegacyReleases } from './legacy-releases.ts';
import { followMasterRelease, type MasterUpgradeContext } from './master-upgrade.service.ts';

/** A lease lasts three rounds: a master that died is taken over after that. */
const LEASE_ROUNDS = 3;
/** Chunks of a write idle this long belong to a master that stopped mid-upload. */
const ABANDONED_AFTER_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

export interface SysOpRoundsOptions {
  db: Kysely<Database>;
  bus: CommandBus;
  master: MasterUpgradeContext;
  work: BackgroundWork;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  everyMs: number;
  /** This master's name in the lease; a new one per start by default. */
  holder?: string | undefined;
}

/**
 * The periodic work of /sys/op. On one master at a time (under a lease): running rollouts move on, so
 * nodes that never answer time out, and abandoned blob chunks are swept. On every master, for its own
 * host: a master release another master installed is installed here too. At start each master also
 * moves the agent bundles its data directory still holds into the blob store.
 */
export function startSysOpRounds(options: SysOpRoundsOptions) {
  const { db, bus, master, work, log, everyMs } = options;
  const holder = options.holder ?? randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let sweptAt = 0;
  let following = false;

  const follow = () => {
    if (following) return;
    following = true;
    work.run(
      async (signal) => {
        try {
          await followMasterRelease(master, signal);
        } finally {
          following = false;
        }
      },
      (error) => log.error({ err: error }, 'installing the master release failed'),
    );
  };

  const round = async () => {
    const now = Date.now();
    try {
      const held = await advanceRound(db, bus, holder, LEASE_ROUNDS * everyMs, now);
      if (held && now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        await sweepAbandonedChunks(db, now - ABANDONED_AFTER_MS);
      }
    } catch (error) {
      if (!stopped) log.warn({ err: error }, 'agent upgrade round failed');
    }
    if (!stopped) follow();
  };

  const loop = () => {
    current = round().then(() => {
      if (stopped) return;
      timer = setTimeout(loop, everyMs);
      timer.unref();
    });
  };

  work.run(
    (signal) => importLegacyReleases(db, master.paths.dataDir, log, signal).then(() => undefined),
    (error) => log.error({ err: error }, 'moving agent bundles into the database failed'),
  );
  follow();
  timer = setTimeout(loop, everyMs);
  timer.unref();

  return {
    holder,
    /** Stops the rounds and lets the lease go, so another master takes over at once. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      await releaseLease(db, ROLLOUT_LEASE, holder).catch(() => undefined);
    },
  };
}
