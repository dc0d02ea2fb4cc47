import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import {
  claimTask,
  heartbeat,
  queuedTasks,
  recoverStaleTasks,
  setTaskProgress,
  settleTask,
  type TaskRow,
} from './tasks.repository.ts';

/** A failure whose message is meant for the user as it is (task errors are shown on the pages). */
export class TaskFailure extends Error {
  override name = 'TaskFailure';
}

export interface TaskContext {
  task: TaskRow;
  /** Records the step the task is at (and that its runner is alive). */
  progress(step: string): Promise<void>;
  /** Aborted when the master stops: the task is queued again and resumes on the next start. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export type TaskHandler = (context: TaskContext) => Promise<void>;

export interface TaskRunnerOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  handlers: Record<string, TaskHandler>;
  concurrency?: number;
  pollMs?: number;
  heartbeatMs?: number;
  /** A running task whose heartbeat is older than this belongs to a runner that is gone. */
  staleMs?: number;
  maxAttempts?: number;
  /** This runner's name in its claims; a new one per runner by default. */
  runner?: string;
}

// Runners in this process start queued work at once instead of at their next poll.
const queued = new EventEmitter();
queued.setMaxListeners(0);

// Where wake-ups are told to the other masters (their runners look too); see modules/cluster.
const wakeRelays = new Set<() => void>();

/** Wakes the runners after queued tasks (insertTask) committed; `relay` false: another master told this one. */
export const wakeRunners = (relay = true) => {
  queued.emit('queued');
  if (relay) for (const send of wakeRelays) send();
};

/** Tells `relay` of every wake-up from now on; answers how to stop. */
export const relayRunnerWakesTo = (relay: () => void) => {
  wakeRelays.add(relay);
  return () => void wakeRelays.delete(relay);
};

const readable = (error: unknown) => error instanceof TaskFailure || error instanceof AppError;

/**
 * The in-process runner of durable tasks: claims queued tasks from the database (so several
 * masters share the work), never runs two tasks that share a lock key (a domain) at once on any
 * master (the claim checks the running tasks of every runner), beats a heartbeat while working,
 * and takes back tasks a stopped master left running. A runner that lost a task (its heartbeat went
 * stale and another master took the task over) writes nothing more on it.
 */
export class TaskRunner {
  private readonly options: Required<TaskRunnerOptions>;
  private readonly running = new Map<number, { keys: string[]; done: Promise<void> }>();
  private readonly abort = new AbortController();
  private timers: NodeJS.Timeout[] = [];
  private ticking: Promise<void> | null = null;
  private again = false;
  private readonly wake = () => this.kick();

  constructor(options: TaskRunnerOptions) {
    this.options = {
      concurrency: 4,
      pollMs: 5000,
      heartbeatMs: 15_000,
      staleMs: 60_000,
      maxAttempts: 3,
      runner: randomUUID(),
      ...options,
    };
  }

  start() {
    queued.on('queued', this.wake);
    this.timers.push(setInterval(this.wake, this.options.pollMs));
    this.timers.push(
      setInterval(() => {
        heartbeat(this.options.db, this.options.runner, [...this.running.keys()], Date.now()).catch((error: unknown) =>
          this.options.log.warn({ err: error }, 'task heartbeat failed'),
        );
      }, this.options.heartbeatMs),
    );
    this.kick();
  }

  /** Stops taking work, aborts running tasks (they are queued again) and waits for them to wind down. */
  async stop() {
    queued.off('queued', this.wake);
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.abort.abort();
    await this.ticking;
    await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  kick() {
    if (this.abort.signal.aborted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'task runner tick failed'))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async tick() {
    const { db, concurrency, staleMs, maxAttempts, runner } = this.options;
    const now = Date.now();
    await recoverStaleTasks(db, now - staleMs, maxAttempts, now);
    // Keys running here are skipped without asking; the claim checks every master's.
    const locked = new Set([...this.running.values()].flatMap((entry) => entry.keys));
    for (const task of await queuedTasks(db, 100)) {
      if (this.running.size >= concurrency || this.abort.signal.aborted) return;
      const handler = this.options.handlers[task.kind];
      const keys = JSON.parse(task.lock_keys) as string[];
      if (!handler || keys.some((key) => locked.has(key))) continue;
      if (!(await claimTask(db, task, runner, Date.now()))) continue;
      for (const key of keys) locked.add(key);
      const done = this.run(handler, { ...task, state: 'running', runner }).finally(() => {
        this.running.delete(task.id);
        this.kick();
      });
      this.running.set(task.id, { keys, done });
    }
  }

  private async run(handler: TaskHandler, task: TaskRow) {
    const { db, log } = this.options;
    const claim = { id: task.id, runner: this.options.runner };
    const context: TaskContext = {
      task,
      signal: this.abort.signal,
      log,
      progress: async (step) => {
        if (this.abort.signal.aborted) throw new TaskFailure('the master is stopping');
        if (!(await setTaskProgress(db, claim, step, Date.now()))) {
          throw new TaskFailure('another master took the task over');
        }
      },
    };
    try {
      await handler(context);
      await settleTask(db, claim, { state: 'done' }, Date.now());
    } catch (error) {
      if (this.abort.signal.aborted) {
        await settleTask(db, claim, { state: 'queued' }, Date.now()).catch(() => undefined);
        return;
      }
      if (!readable(error)) log.error({ err: error, task: task.id }, 'task failed');
      const message = readable(error)
        ? (error as Error).message
        : 'the task failed unexpectedly; the master log has the details';
      await settleTask(db, claim, { state: 'failed', error: message.slice(0, 2000) }, Date.now()).catch(
        (settleError: unknown) => log.error({ err: settleError }, 'could not record a failed task'),
      );
    }
  }
}
