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
