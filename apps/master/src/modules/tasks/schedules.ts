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
import {
  claimScheduledTask,
  ensureScheduledTasks,
  finishScheduledTask,
  listScheduledTasks,
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
    name: 'wxpay-certificates',
    intervalSeconds: 12 * 3600,
    async run({ db, log }) {
      const serials = await refreshWxpayPlatformCerts(db);
      if (serials) log.info({ serials }, 'downloaded the WeChat Pay platform certificates');
    },
  },
];

export const scheduledJob = (name: string) => SCHEDULED_JOBS.find((job) => job.name === name);

// A run whose master died leaves running_since behind; after this long another master may run it.
const STALE_MS = 60 * 60 * 1000;
const POLL_MS = 5000;

// Runs started in this process (by the scheduler or "run now"), awaited before the master stops.
const inFlight = new Set<Promise<void>>();

/**
 * Runs the job unless a run holds it, and records the result and duration; answers whether it
 * started. The run goes on in the background: `done` settles when it has been recorded.
 */
export async function startScheduledRun(
  deps: ScheduleDeps,
  job: ScheduledJob,
): Promise<{ started: boolean; done: Promise<void> }> {
  const { db, log } = deps;
  const startedAt = Date.now();
  if (!(await claimScheduledTask(db, job.name, startedAt, startedAt - STALE_MS))) {
    return { started: false, done: Promise.resolve() };
  }
  const done = (async () => {
    let error: string | null = null;
    try {
      await job.run(deps);
    } catch (failure) {
      log.error({ err: failure, task: job.name }, 'scheduled task failed');
      error = failure instanceof Error ? failure.message.slice(0, 2000) : 'the task failed';
    }
    await finishScheduledTask(db, job.name, { startedAt, error }, Date.now()).catch((failure: unknown) =>
      log.error({ err: failure, task: job.name }, 'could not record a scheduled run'),
    );
  })();
  inFlight.add(done);
  void done.finally(() => inFlight.delete(done));
  return { started: true, done };
}

/** Waits for the runs this process started. */
export async function settleScheduledRuns() {
  await Promise.all([...inFlight]);
}

/** Every few seconds, starts the enabled tasks whose interval has passed since their last start. */
export function startSchedules(deps: ScheduleDeps): { stop(): Promise<void> } {
  const { db, log } = deps;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  const tick = () => {
    ticking = (async () => {
      try {
        await ensureScheduledTasks(db, SCHEDULED_JOBS);
        const now = Date.now();
        for (const row of await listScheduledTasks(db)) {
          const job = scheduledJob(row.name);
          if (stopped || !job || Number(row.enabled) !== 1 || row.running_since !== null) continue;
          const due =
            row.last_started_at === null || Number(row.last_started_at) + Number(row.interval_seconds) * 1000 <= now;
          if (due) await startScheduledRun(deps, job);
        }
      } catch (error) {
        log.error({ err: error }, 'scheduled tasks round failed');
      }
      if (stopped) return;
      timer = setTimeout(tick, POLL_MS);
      timer.unref();
    })();
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await settleScheduledRuns();
    },
  };
}
