import {
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  RetryTaskBody,
  RetryTasksBody,
  ScheduledTask,
  ScheduledTaskParams,
  Task,
  TaskListQuery,
  UpdateScheduledTaskBody,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import {
  ensureScheduledTasks,
  findScheduledTask,
  listScheduledTasks,
  presentScheduledTask,
  updateScheduledTask,
} from './schedules.repository.ts';
import { SCHEDULED_JOBS, scheduledJob, startScheduledRun } from './schedules.ts';
import { wakeRunners } from './task-runner.ts';
import { findTask, latestTaskFor, listTasks, presentTask, requeueTask } from './tasks.repository.ts';

const tags = ['tasks'];

/** Only a failed task can run again, and only the newest task of its object. */
async function retryable(db: Kysely<Database>, id: number) {
  const task = await findTask(db, id);
  if (!task) throw new AppError('not_found', `task ${id} does not exist`);
  if (task.state !== 'failed')
    throw new AppError('conflict', `task ${id} is ${task.state}; only a failed task can be retried`);
  if (task.target_id !== null) {
    const latest = await latestTaskFor(db, task.kind, task.target_id);
    if (latest && latest.id !== task.id) {
      throw new AppError('conflict', `task ${id} was followed by task ${latest.id} on the same object; retry that one`);
    }
  }
  return task;
}

/** Spec §7 /v1/tasks: the background tasks, for administrators; a failed one can be run again. */
export async function taskRoutes(app: App, { db, logs, events, dialect, notifier, secrets }: AppContext) {
  app.get(
    '/v1/tasks',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, querystring: TaskListQuery, response: { 200: Envelope(ListResult(Task)) } },
    },
    async (request) => {
      const { page = 1, limit = 20, state, kind } = request.query;
      return ok(await listTasks(db, { state, kind }, page, limit));
    },
  );

  app.put(
    '/v1/tasks',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags, body: RetryTasksBody, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      for (const id of request.body.ids) await retryable(db, id);
      for (const id of request.body.ids) await requeueTask(db, id, Date.now());
      wakeRunners();
      return ok(null);
    },
  );

  app.put(
    '/v1/tasks/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        params: IdParams,
        body: RetryTaskBody,
        response: { 200: Envelope(Task) },
      },
    },
    async (request) => {
      const task = await retryable(db, request.params.id);
      await requeueTask(db, task.id, Date.now());
      wakeRunners();
      return ok(
        presentTask({ ...task, state: 'queued', progress: 'queued', error: '', attempts: 0, finished_at: null }),
      );
    },
  );

  const scheduled = async (name: string) => {
    const job = scheduledJob(name);
    if (!job) {
      const known = SCHEDULED_JOBS.map((each) => each.name).join(', ');
      throw new AppError('not_found', `scheduled task ${name} does not exist; there are ${known}`);
    }
    await ensureScheduledTasks(db, SCHEDULED_JOBS);
    return job;
  };
  const present = async (name: string) => presentScheduledTask((await findScheduledTask(db, name)) ?? raise(name));

  app.get(
    '/v1/tasks/scheduled',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        description: 'The tasks the master runs on a schedule (/sys/task), with how their last run went',
        response: { 200: Envelope(ListResult(ScheduledTask)) },
      },
    },
    async () => {
      await ensureScheduledTasks(db, SCHEDULED_JOBS);
      const rows = await listScheduledTasks(db);
      return ok({ list: rows.map(presentScheduledTask), total: rows.length });
    },
  );

  app.put(
    '/v1/tasks/scheduled/:name',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        params: ScheduledTaskParams,
        body: UpdateScheduledTaskBody,
        response: { 200: Envelope(ScheduledTask) },
      },
    },
    async (request) => {
      const job = await scheduled(request.params.name);
      const { enabled, interval_seconds } = request.body;
      await updateScheduledTask(db, job.name, { enabled, intervalSeconds: interval_seconds });
      return ok(await present(job.name));
    },
  );

  app.post(
    '/v1/tasks/scheduled/:name/run',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        params: ScheduledTaskParams,
        description: 'Runs it now, even while disabled; conflict while a run is going on',
        response: { 200: Envelope(ScheduledTask) },
      },
    },
    async (request) => {
      const job = await scheduled(request.params.name);
      const { started } = await startScheduledRun(
        { db, logs, events, dialect, log: request.log, notifier, secrets },
        job,
      );
      if (!started) throw new AppError('conflict', `scheduled task ${job.name} is running; wait for it to finish`);
      return ok(await present(job.name));
    },
  );
}

const raise = (name: string): never => {
  throw new AppError('not_found', `scheduled task ${name} does not exist`);
};
