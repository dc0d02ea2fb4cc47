import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id } from './fields.ts';

export const TaskState = Type.Union(
  [Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')],
  { description: 'queued, running, done or failed' },
);
export type TaskState = Static<typeof TaskState>;

/** A durable background task (certificate issuance so far), as GET /v1/tasks lists it. */
export const Task = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'what the task does, such as cert-issue' }),
  user_id: Type.Integer(),
  target_id: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the object it works on, such as a certificate',
  }),
  state: TaskState,
  progress: Type.String(),
  error: Type.String({ description: 'why it failed, in plain words' }),
  attempts: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
});
export type Task = Static<typeof Task>;

export const TaskListQuery = Type.Object({
  ...ListQuery.properties,
  state: Type.Optional(TaskState),
  kind: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,32}$' })),
});
export type TaskListQuery = Static<typeof TaskListQuery>;

/** PUT /v1/tasks: run failed tasks again. */
export const RetryTasksBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
    action: Type.Literal('retry', { description: 'retry' }),
  },
  { additionalProperties: false },
);
export type RetryTasksBody = Static<typeof RetryTasksBody>;

/** PUT /v1/tasks/{id}: run one failed task again. */
export const RetryTaskBody = Type.Object(
  { action: Type.Literal('retry', { description: 'retry' }) },
  { additionalProperties: false },
);
export type RetryTaskBody = Static<typeof RetryTaskBody>;

/** A task the master runs on a schedule (/sys/task): certificate renewal, log retention. */
export const ScheduledTask = Type.Object({
  name: Type.String({ description: 'cert-renewal, log-retention, traffic-retention, user-packages or expiry-notices' }),
  enabled: Type.Boolean(),
  interval_seconds: Type.Integer({ description: 'how often it runs' }),
  running: Type.Boolean(),
  last_started_at: Type.Union([Type.String(), Type.Null()]),
  last_finished_at: Type.Union([Type.String(), Type.Null()]),
  last_result: Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Null()], {
    description: 'ok, failed, or null before the first run',
  }),
  last_error: Type.String({ description: 'why the last run failed, in plain words' }),
  last_duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  next_run_at: Type.Union([Type.String(), Type.Null()], { description: 'null while disabled' }),
});
export type ScheduledTask = Static<typeof ScheduledTask>;

export const ScheduledTaskParams = Type.Object({
  name: Type.String({ pattern: '^[a-z-]{1,32}$', description: 'a scheduled task name such as log-retention' }),
});

/** PUT /v1/tasks/scheduled/{name}: turn it on or off, or change how often it runs. */
export const UpdateScheduledTaskBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    interval_seconds: Type.Optional(
      Type.Integer({ minimum: 60, maximum: 604_800, description: 'from 60 (a minute) to 604800 (a week)' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateScheduledTaskBody = Static<typeof UpdateScheduledTaskBody>;
