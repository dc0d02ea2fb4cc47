import {
  type ApplyError,
  type EdgeSite,
  type EdgeSnapshot,
  NODE_TOKEN_HEADER,
  type NodeStatusBody,
  type OriginHealthEntry,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { Applier } from '../apply/applier.ts';
import { ensureGeoip, type GeoipDownload } from '../geoip/geoip-store.ts';
import { errorText, type Logger } from '../logger.ts';
import type { StateStore } from '../state.ts';
import { Backoff, pause } from './backoff.ts';
import { inNodeTime } from './clock.ts';
import { type JobContext, runJob } from './jobs.ts';
import { type MasterClient, MasterError } from './master-client.ts';

/** The first retry of a snapshot that did not go live; each next one waits up to twice as long. */
const RETRY_BASE_MS = 2000;
/** A snapshot that is not live is tried again at least this often. */
const RETRY_MAX_MS = 60_000;
/** How long an event (nginx restarted) stays in last_error. */
const NOTICE_MS = 10 * 60_000;
/** A GeoIP database that could not be fetched is tried again this often (and with each snapshot). */
const GEOIP_RETRY_MS = 30_000;

/**
 * The shape of ConfigAnswer checked before rendering. Sites, streams, certificates and jobs are
 * checked one by one later, so one bad item cannot make the agent refuse a whole snapshot.
 */
const ConfigAnswerShape = Type.Object({
  version: Type.Integer({ minimum: 0 }),
  changed: Type.Boolean(),
  snapshot: Type.Optional(
    Type.Object({
      version: Type.Integer({ minimum: 0 }),
      node: Type.Object({}),
      sites: Type.Array(Type.Unknown()),
      streams: Type.Array(Type.Unknown()),
      certs: Type.Array(Type.Unknown()),
      jobs: Type.Array(Type.Unknown()),
    }),
  ),
});

interface ConfigAnswerBody {
  version: number;
  changed: boolean;
  snapshot?: EdgeSnapshot;
}

export interface ConfigSyncOptions {
  client: MasterClient;
  credential: string;
  applier: Applier;
  state: StateStore;
  /** Seconds the master may hold a config poll open. */
  waitSeconds: number;
  /** Where jobs reach this node's nginx. */
  jobContext: Omit<JobContext, 'sites' | 'httpPort' | 'httpsPort'>;
  droppedLogLines: () => number;
  /** The edge's origin health checks, read as each status report goes out; undefined: nothing to say. */
  originHealth?: () => Promise<OriginHealthEntry[] | undefined>;
  /** Called with each snapshot that went live, for settings the agent itself follows. */
  onApplied?: (snapshot: EdgeSnapshot) => void;
  /** Called with the masters each snapshot names (before it is applied: they hold whatever nginx does). */
  followMasters?: (masters: readonly string[] | undefined) => Promise<unknown>;
  /** Where the snapshot's GeoIP database is kept and how it is fetched; absent: not fetched. */
  geoip?: { dataDir: string; download: GeoipDownload; retryMs?: number };
  log: Logger;
}

/**
 * The config loop: long-poll the master with the version this node has, apply a new snapshot,
 * report status, run the snapshot's jobs. The master being away only delays it; nginx keeps
 * serving the last proven config.
 */
export class ConfigSync {
  private readonly options: ConfigSyncOptions;
  private seenVersion = 0;
  private appliedVersion = 0;
  private applyErrors: ApplyError[] = [];
  private lastError = '';
  /** What happened to nginx lately (restarted after its master died), kept in last_error for a while. */
  private notices: { text: string; until: number }[] = [];
  /** The newest snapshot the master sent: tried again with backoff until it is live. */
  private latest: EdgeSnapshot | null = null;
  private applying: Promise<unknown> = Promise.resolve();
  private readonly retryBackoff = new Backoff(RETRY_BASE_MS, RETRY_MAX_MS);
  private retryAt: number | null = null;
  private wakeRetry: () => void = () => {};
  private geoipRetry: ReturnType<typeof setTimeout> | null = null;

  constructor(options: ConfigSyncOptions) {
    this.options = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { client, log, waitSeconds } = this.options;
    const proven = await this.options.applier.store.proven();
    this.seenVersion = proven?.version ?? 0;
    this.appliedVersion = proven?.version ?? 0;
    const backoff = new Backoff(500, 30_000);
    await this.flushJobResults(signal);
    const retrying = this.retryLoop(signal);
    while (!signal.aborted) {
      try {
        const answer = await client.call<ConfigAnswerBody>(
          {
            method: 'GET',
            path: `/agent/v1/config?version=${this.seenVersion}&wait=${waitSeconds}`,
            headers: this.auth(),
            holdSeconds: waitSeconds,
            signal,
          },
          ConfigAnswerShape,
        );
        backoff.reset();
        if (answer.changed && answer.snapshot) await this.handleSnapshot(answer.snapshot, signal);
        else if (answer.changed) this.seenVersion = answer.version;
      } catch (error) {
        if (signal.aborted) break;
        const delay = backoff.next();
        log.warn('config poll failed; retrying', { error: errorText(error), retry_ms: delay });
        if (error instanceof MasterError && error.unauthorized)
          this.lastError = `the master refused the credential: ${error.message}`;
        await pause(delay, signal);
      }
    }
    this.wakeRetry();
    if (this.geoipRetry !== null) clearTimeout(this.geoipRetry);
    await retrying;
  }

  /**
   * Applies a snapshot, reports status, then runs its new jobs. The status goes out beside the jobs
   * and the next poll (a change that follows at once is not held up by it); reports stay in order.
   */
  async handleSnapshot(snapshot: EdgeSnapshot, signal: AbortSignal): Promise<void> {
    this.seenVersion = snapshot.version;
    await this.options.followMasters?.(snapshot.masters);
    // Bans end by the master's clock; the edge compares them with this node's.
    this.latest = inNodeTime(snapshot, this.options.client.clockOffsetSeconds ?? 0);
    await this.fetchGeoip(snapshot, signal);
    await this.applyLatest();
    void this.reportStatus(signal);
    await this.runJobs(snapshot, signal);
  }

  /**
   * Tries the newest snapshot again now (nginx was brought back after its master died): when it is
   * not live yet, it goes live as soon as nginx can take it rather than at the next backoff step.
   */
  retryNow(): void {
    if (this.latest === null || this.latest.version === this.appliedVersion) return;
    this.retryBackoff.reset();
    this.retryAt = Date.now();
    this.wakeRetry();
  }

  /**
   * The snapshot's GeoIP database, before the config that names it is rendered. One that does not
   * arrive (or not with its digest) leaves country lookups off and says so; it is tried again every
   * GEOIP_RETRY_MS, and the newest snapshot applied again once it is here. True when it is held.
   */
  private async fetchGeoip(snapshot: EdgeSnapshot, signal: AbortSignal): Promise<boolean> {
    const { geoip, log } = this.options;
    if (!geoip || !snapshot.geoip) return false;
    try {
      await ensureGeoip(geoip.dataDir, snapshot.geoip, geoip.download, signal);
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      log.warn('the GeoIP database could not be fetched; country lookups stay off', { error: errorText(error) });
      this.noteEvent(errorText(error));
      if (this.geoipRetry === null) {
        this.geoipRetry = setTimeout(() => {
          this.geoipRetry = null;
          const latest = this.latest;
          if (signal.aborted || latest === null || latest.geoip?.sha256 !== snapshot.geoip?.sha256) return;
          void this.fetchGeoip(latest, signal).then((held) => (held ? this.applyLatest() : undefined));
        }, geoip.retryMs ?? GEOIP_RETRY_MS);
        this.geoipRetry.unref();
      }
      return false;
    }
  }

  /** Records what happened to nginx, shown with last_error on the node list for NOTICE_MS. */
  noteEvent(text: string): void {
    const now = Date.now();
    this.notices = [
      ...this.notices.filter((notice) => notice.until > now),
      { text: text.slice(0, 1000), until: now + NOTICE_MS },
    ].slice(-3);
    void this.reportStatus();
  }

  /**
   * Applies the newest snapshot, one apply at a time: an older snapshot is never applied after a
   * newer one. When it does not go live, it is tried again after a backoff (at most RETRY_MAX_MS).
   */
  private applyLatest(): Promise<void> {
    const run = async () => {
      const snapshot = this.latest;
      if (snapshot === null) return;
      let outcome: Awaited<ReturnType<Applier['apply']>>;
      try {
        outcome = await this.options.applier.apply(snapshot);
      } catch (error) {
        // Not a refusal of the snapshot (a disk error, say): it is tried again like one.
        const version = snapshot.version;
        outcome = {
          applied: false,
          version,
          liveVersion: null,
          errors: [],
          error: `apply failed: ${errorText(error)}`,
        };
      }
      if (outcome.liveVersion !== null) this.appliedVersion = outcome.liveVersion;
      if (outcome.notice) this.noteEvent(outcome.notice);
      if (outcome.applied) this.options.onApplied?.(snapshot);
      this.applyErrors = outcome.errors.slice(0, 10_000);
      this.lastError = outcome.error.slice(0, 4000);
      if (outcome.applied) {
        this.retryBackoff.reset();
        this.retryAt = null;
      } else if (this.latest === snapshot) {
        const delay = this.retryBackoff.next();
        this.retryAt = Date.now() + delay;
        this.options.log.warn('config not live; trying it again', { version: snapshot.version, retry_ms: delay });
        this.wakeRetry();
      }
    };
    const next = this.applying.then(run, run);
    this.applying = next.catch(() => undefined);
    return next;
  }

  /** Applies the newest snapshot again when its retry is due, until it is live or a newer one comes. */
  private async retryLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const due = this.retryAt;
      if (due !== null && Date.now() >= due) {
        this.retryAt = null;
        try {
          await this.applyLatest();
        } catch (error) {
          this.options.log.warn('config retry failed', { error: errorText(error) });
        }
        void this.reportStatus(signal);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, due === null ? 60_000 : Math.max(0, due - Date.now()));
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
        this.wakeRetry = done;
      });
    }
  }

  status(): NodeStatusBody {
    return {
      applied_version: this.appliedVersion,
      apply_errors: this.applyErrors,
      last_error: this.lastErrorText(),
      dropped_log_lines: this.options.droppedLogLines(),
    };
  }

  private lastErrorText(): string {
    const now = Date.now();
    const notices = this.notices.filter((notice) => notice.until > now).map((notice) => notice.text);
    return [this.lastError, ...notices]
      .filter((text) => text !== '')
      .join('; ')
      .slice(0, 4000);
  }

  /** POST /agent/v1/status; a failure is logged and the next heartbeat tries again. */
  reportStatus(signal?: AbortSignal): Promise<boolean> {
    // One report at a time, each with the status as it is when it goes out.
    const next = this.reporting.then(() => this.sendStatus(signal));
    this.reporting = next;
    return next;
  }

  private reporting: Promise<boolean> = Promise.resolve(true);

  private async sendStatus(signal?: AbortSignal): Promise<boolean> {
    try {
      const originHealth = await this.options.originHealth?.().catch(() => undefined);
      const body = originHealth ? { ...this.status(), origin_health: originHealth } : this.status();
      await this.options.client.call(
        { method: 'POST', path: '/agent/v1/status', headers: this.auth(), body, signal },
        null,
      );
      return true;
    } catch (error) {
      if (!signal?.aborted) this.options.log.warn('status report failed', { error: errorText(error) });
      return false;
    }
  }

  private async runJobs(snapshot: EdgeSnapshot, signal: AbortSignal): Promise<void> {
    const { state, log } = this.options;
    const done = new Set(state.state.done_jobs);
    const sites = new Map<number, EdgeSite>();
    for (const site of snapshot.sites) if (site && typeof site.id === 'number') sites.set(site.id, site);
    const context: JobContext = {
      ...this.options.jobContext,
      httpPort: snapshot.node.http_port,
      httpsPort: snapshot.node.https_port,
      sites,
    };
    for (const job of snapshot.jobs) {
      if (signal.aborted) return;
      const id = (job as { id?: unknown })?.id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || done.has(id)) continue;
      let result: Awaited<ReturnType<typeof runJob>>;
      try {
        result = await runJob(job, context);
      } catch (error) {
        result = { state: 'failed', error: errorText(error).slice(0, 2000) };
      }
      log.info('job finished', { job_id: id, type: job.type, state: result.state, error: result.error });
      done.add(id);
      await state.update((s) => {
        s.done_jobs.push(id);
        s.unsent_results.push({ id, ...result });
      });
    }
    await this.flushJobResults(signal);
  }

  /** Sends job results the master has not acknowledged yet (kept in the state file). */
  async flushJobResults(signal?: AbortSignal): Promise<void> {
    const { state, client, log } = this.options;
    for (const result of [...state.state.unsent_results]) {
      try {
        await client.call(
          {
            method: 'POST',
            path: `/agent/v1/jobs/${result.id}/result`,
            headers: this.auth(),
            body: { state: result.state, error: result.error },
            signal,
          },
          null,
        );
      } catch (error) {
        const permanent = error instanceof MasterError && !error.retryable && !error.unauthorized;
        if (!permanent) {
          if (!signal?.aborted)
            log.warn('job result not delivered; will retry', { job_id: result.id, error: errorText(error) });
          return;
        }
        log.warn('the master refused a job result; dropping it', { job_id: result.id, error: errorText(error) });
      }
      await state.update((s) => {
        s.unsent_results = s.unsent_results.filter((r) => r.id !== result.id);
      });
    }
  }

  private auth(): Record<string, string> {
    return { [NODE_TOKEN_HEADER]: this.options.credential };
  }
}
