import {
  type ApplyError,
  type EdgeSite,
  type EdgeSnapshot,
  NODE_TOKEN_HEADER,
  type NodeStatusBody,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { Applier } from '../apply/applier.ts';
import { errorText, type Logger } from '../logger.ts';
import type { StateStore } from '../state.ts';
import { Backoff, pause } from './backoff.ts';
import { type JobContext, runJob } from './jobs.ts';
import { type MasterClient, MasterError } from './master-client.ts';

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
  /** Called with each snapshot that went live, for settings the agent itself follows. */
  onApplied?: (snapshot: EdgeSnapshot) => void;
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
    while (!signal.aborted) {
      try {
        const answer = await client.call<ConfigAnswerBody>(
          {
            method: 'GET',
            path: `/agent/v1/config?version=${this.seenVersion}&wait=${waitSeconds}`,
            headers: this.auth(),
            timeoutMs: (waitSeconds + 15) * 1000,
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
  }

  /**
   * Applies a snapshot, reports status, then runs its new jobs. The status goes out beside the jobs
   * and the next poll (a change that follows at once is not held up by it); reports stay in order.
   */
  async handleSnapshot(snapshot: EdgeSnapshot, signal: AbortSignal): Promise<void> {
    const outcome = await this.options.applier.apply(snapshot);
    this.seenVersion = snapshot.version;
    if (outcome.liveVersion !== null) this.appliedVersion = outcome.liveVersion;
    if (outcome.applied) this.options.onApplied?.(snapshot);
    this.applyErrors = outcome.errors.slice(0, 10_000);
    this.lastError = outcome.error.slice(0, 4000);
    void this.reportStatus(signal);
    await this.runJobs(snapshot, signal);
  }

  status(): NodeStatusBody {
    return {
      applied_version: this.appliedVersion,
      apply_errors: this.applyErrors,
      last_error: this.lastError,
      dropped_log_lines: this.options.droppedLogLines(),
    };
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
      await this.options.client.call(
        { method: 'POST', path: '/agent/v1/status', headers: this.auth(), body: this.status(), signal },
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
