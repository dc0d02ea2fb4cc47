import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { EventStore } from '../../db/events.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { renewDueCerts } from '../acme/renewals.ts';
import { pruneAccountLogs } from '../audit/log-retention.ts';
import { reportDnsDrift } from '../line-groups/drift-notices.ts';
import { sendCertExpiryNotices } from '../messages/expiry-notices.ts';
import type { Notifier } from '../messages/notifier.ts';
import { sendPackageExpiryNotices, sendPackageTrafficNotices } from '../messages/package-notices.ts';
import { pruneTrafficData } from '../monitor/traffic-retention.ts';
import { settleUserPackages } from '../packages/package-expiry.ts';
import { enforceMonthlyTraffic } from '../packages/package-traffic.ts';
import { refreshWxpayPlatformCerts } from '../payments/wxpay-certs.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { pendingProofs } from '../sites/domain-proofs.repository.ts';
import { checkDomainProofs } from '../sites/domain-proofs.service.ts';
import {
  claimScheduledTask,
  ensureScheduledTasks,
  finishScheduledTask,
  listScheduledTasks,
  renewScheduledRun,
  runHolds,
} from './schedules.repository.ts';

/** What a scheduled run works with. */
export interface ScheduleDeps {
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  events: EventStore;
  dialect: Dialect;
  log: FastifyBaseLogger;
  notifier: Notifier;
  secrets: SecretBox;
}

export interface ScheduledJob {
  name: string;
  intervalSeconds: number;
  run(deps: ScheduleDeps): Promise<void>;
}

/** The tasks of /sys/task, each with how often it runs until an admin changes it. */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  {
    name: 'cert-renewal',
    intervalSeconds: 3600,
    async run({ db, log }) {
      const queued = await renewDueCerts(db);
      if (queued.length > 0) log.info({ certs: queued }, 'queued certificate renewals');
    },
  },
  {
    name: 'log-retention',
    intervalSeconds: 3600,
    async run({ db, log }) {
      const deleted = await pruneAccountLogs(db);
      if (deleted > 0) log.info({ deleted }, 'pruned operation and login logs past retention');
    },
  },
  {
    name: 'traffic-retention',
    intervalSeconds: 3600,
    async run({ db, logs, events, dialect, log }) {
      const pruned = await pruneTrafficData(logs, dialect, await loadSettings(db), Date.now(), events);
      if (Object.keys(pruned).length > 0) log.info({ pruned }, 'pruned traffic data past retention');
    },
  },
  {
    name: 'user-packages',
    intervalSeconds: 60,
    async run({ db, events, log, notifier }) {
      const settled = await settleUserPackages(db);
      if (settled.renewed + settled.expired > 0) log.info(settled, 'renewed or expired user packages past their end');
      const { usage, ...traffic } = await enforceMonthlyTraffic(db, events.db);
      if (traffic.exceeded + traffic.cleared > 0)
        log.info(traffic, 'user packages past or back within their monthly traffic');
      const told = await sendPackageTrafficNotices(db, notifier, usage);
      if (told > 0) log.info({ sent: told }, 'sent package traffic notices');
    },
  },
  {
    name: 'expiry-notices',
    intervalSeconds: 3600,
    async run({ db, log, notifier }) {
      const certs = await sendCertExpiryNotices(db, notifier);
      if (certs > 0) log.info({ sent: certs }, 'sent certificate expiry notices');
      const packages = await sendPackageExpiryNotices(db, notifier);
      if (packages > 0) log.info({ sent: packages }, 'sent package expiry and renewal balance notices');
    },
  },
  {
    name: 'dns-drift',
    intervalSeconds: 3600,
    async run(deps) {
      const drifted = await reportDnsDrift(deps);
      if (drifted > 0) deps.log.info({ drifted }, 'told the admins of line groups whose DNS records differ');
    },
  },
  {
    name: 'domain-proofs',
    intervalSeconds: 60,
    async run({ db, log }) {
      // Pending domains: every run for their first day, hourly after (pendingProofs).
      const results = await checkDomainProofs(db, await pendingProofs(db, { dueAt: Date.now() }));
      const proved = results.filter((result) => result.method !== '').length;
      if (proved > 0) log.info({ proved, checked: results.length }, 'domains proved by their owners');
    },
  },
  {
    name: 'wxpay-certificates',
    intervalSeconds: 12 * 3600,
    async run({ db, log }) {
      const serials = await refreshWxpayPlatformCerts(db);
      if (serials) log.info({ serials }, 'downloaded the WeChat Pay platform certificates');
    },
  },
];

export const scheduledJob = (name: string) => SCHEDULED_JOBS.find((job) => job.name === name);

/**
 * How long a run's claim lasts unless its master renews it: a run whose claim has not been renewed
 * for this long was cut by a master that died, and another master runs the task again.
 */
export const SCHEDULE_LEASE_MS = 30_000;
// Polls this often for due tasks; a run renews its claim this many times per lease (every 5 s).
const POLL_MS = 5000;
const RENEWALS_PER_LEASE = 6;

export interface ScheduleOptions {
  /** This master's name in the claims; a new one per start by default. */
  holder?: string | undefined;
  /** How long a run's claim lasts unless renewed (SCHEDULE_LEASE_MS; tests pass a shorter one). */
  leaseMs?: number | undefined;
  pollMs?: number | undefined;
  /** The tasks to run (SCHEDULED_JOBS; tests pass their own). */
  jobs?: readonly ScheduledJob[] | undefined;
}

/**
 * The runs one holder starts. A run claims its task in the database, renews the claim every few
 * seconds while it goes on, and records its result when it ends, which lets the task go. A claim
 * that has not been renewed for one lease belongs to a master that died: another master claims the
 * task and runs it again (the cut run never finished). What a run that lost its claim records is
 * discarded, so it cannot write over the run that took over.
 */
function scheduledRuns(holder: string, leaseMs: number) {
  const inFlight = new Set<Promise<void>>();
  const renewals = new Set<NodeJS.Timeout>();
  let abandoned = false;

  async function start(deps: ScheduleDeps, job: ScheduledJob): Promise<{ started: boolean; done: Promise<void> }> {
    const { db, log } = deps;
    const run = { holder, startedAt: Date.now() };
    const claimed = !abandoned && (await claimScheduledTask(db, job.name, run, run.startedAt + leaseMs));
    // Abandoned meanwhile: the claim is left to run out, as a master that died leaves it.
    if (!claimed || abandoned) return { started: false, done: Promise.resolve() };
    let ended = false;
    const renewal = setInterval(
      () => {
        renewScheduledRun(db, job.name, run, Date.now() + leaseMs).then(
          (held) => {
            // A renewal answered after the run was recorded finds it let go: nothing was lost.
            if (held || ended) return;
            clearInterval(renewal);
            log.warn({ task: job.name }, 'another master took over a scheduled run that could not renew its claim');
          },
          (error: unknown) => log.warn({ err: error, task: job.name }, 'a scheduled run could not renew its claim'),
        );
      },
      Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
    );
    renewal.unref();
    renewals.add(renewal);
    const done = (async () => {
      let error: string | null = null;
      try {
        await job.run(deps);
      } catch (failure) {
        log.error({ err: failure, task: job.name }, 'scheduled task failed');
        error = failure instanceof Error ? failure.message.slice(0, 2000) : 'the task failed';
      } finally {
        ended = true;
        clearInterval(renewal);
        renewals.delete(renewal);
      }
      await finishScheduledTask(db, job.name, run, error, Date.now()).catch((failure: unknown) =>
        log.error({ err: failure, task: job.name }, 'could not record a scheduled run'),
      );
    })();
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    return { started: true, done };
  }

  return {
    start,
    /** Waits for the runs started here. */
    settle: async () => void (await Promise.all([...inFlight])),
    /** Stops renewing at once and starts nothing more (see ScheduleTimer.abandon). */
    abandon() {
      abandoned = true;
      for (const renewal of renewals) clearInterval(renewal);
      renewals.clear();
    },
  };
}

// Runs an admin starts with "run now" on this master, awaited before the master stops.
const runsNow = scheduledRuns(randomUUID(), SCHEDULE_LEASE_MS);

/**
 * Runs the job unless a run (on this master or another) holds it, and records the result and
 * duration; answers whether it started. The run goes on in the background: `done` settles when it
 * has been recorded.
 */
export const startScheduledRun = (deps: ScheduleDeps, job: ScheduledJob) => runsNow.start(deps, job);

/** Waits for the runs "run now" started in this process. */
export const settleScheduledRuns = () => runsNow.settle();

export interface ScheduleTimer {
  holder: string;
  /** Starts nothing more and waits for the runs in flight, which record their results and let their tasks go. */
  stop(): Promise<void>;
  /**
   * Stops polling and renewing at once and lets nothing go, as a master that dies or is cut off from
   * the database: its runs' claims run out and another master takes their tasks over. Settles when
   * the runs in flight here have ended (what they record is discarded once taken over).
   */
  abandon(): Promise<void>;
}

/**
 * Every few seconds, starts the enabled tasks that are due: their interval has passed since their
 * last start, or their last run was cut by a master that died. Every master runs this; the claims
 * make each run happen on one of them.
 */
export function startSchedules(deps: ScheduleDeps, options: ScheduleOptions = {}): ScheduleTimer {
  const { db, log } = deps;
  const holder = options.holder ?? randomUUID();
  const leaseMs = options.leaseMs ?? SCHEDULE_LEASE_MS;
  const pollMs = options.pollMs ?? POLL_MS;
  const jobs = options.jobs ?? SCHEDULED_JOBS;
  const runs = scheduledRuns(holder, leaseMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  const tick = () => {
    ticking = (async () => {
      try {
        await ensureScheduledTasks(db, jobs);
        const now = Date.now();
        for (const row of await listScheduledTasks(db)) {
          const job = jobs.find((each) => each.name === row.name);
          if (stopped || !job || Number(row.enabled) !== 1 || runHolds(row, now)) continue;
          const cut = row.running_since !== null;
          const due =
            cut ||
            row.last_started_at === null ||
            Number(row.last_started_at) + Number(row.interval_seconds) * 1000 <= now;
          if (due) await runs.start(deps, job);
        }
      } catch (error) {
        log.error({ err: error }, 'scheduled tasks round failed');
      }
      if (stopped) return;
      timer = setTimeout(tick, pollMs);
      timer.unref();
    })();
  };
  tick();
  const halt = async () => {
    stopped = true;
    clearTimeout(timer);
    await ticking;
  };
  return {
    holder,
    async stop() {
      await halt();
      await runs.settle();
    },
    async abandon() {
      runs.abandon();
      await halt();
      await runs.settle();
    },
  };
}
