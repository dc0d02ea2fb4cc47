import {
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  RetryTaskBody,
  RetryTasksBody,
  Task,
  TaskListQuery,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { wakeRunners } from './task-runner.ts';
import { findTask, latestTaskFor, listTasks, presentTask, requeueTask } from './tasks.repository.ts';

const tags = ['tasks'];
const admin = (request: FastifyRequest) => requirePermission(request, PERMISSIONS.adminSys);

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
export async function taskRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/tasks',
    { schema: { tags, querystring: TaskListQuery, response: { 200: Envelope(ListResult(Task)) } } },
    async (request) => {
      admin(request);
      const { page = 1, limit = 20, state, kind } = request.query;
      return ok(await listTasks(db, { state, kind }, page, limit));
    },
  );

  app.put(
    '/v1/tasks',
    { schema: { tags, body: RetryTasksBody, response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      admin(request);
      for (const id of request.body.ids) await retryable(db, id);
      for (const id of request.body.ids) await requeueTask(db, id, Date.now());
      wakeRunners();
      return ok(null);
    },
  );

  app.put(
    '/v1/tasks/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: RetryTaskBody,
        response: { 200: Envelope(Task) },
      },
    },
    async (request) => {
      admin(request);
      const task = await retryable(db, request.params.id);
      await requeueTask(db, task.id, Date.now());
      wakeRunners();
      return ok(
        presentTask({ ...task, state: 'queued', progress: 'queued', error: '', attempts: 0, finished_at: null }),
      );
    },
  );
}
