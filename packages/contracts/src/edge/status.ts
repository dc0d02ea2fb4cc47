import { type Static, Type } from 'typebox';
import { JobType } from './snapshot.ts';

/** GET /v1/sites/{id}/apply-status and /v1/streams/{id}/apply-status: which nodes serve it as saved. */
export const ApplyStatus = Type.Object({
  version: Type.Integer(),
  nodes: Type.Array(
    Type.Object({ node_id: Type.Integer(), name: Type.String(), applied: Type.Boolean(), error: Type.String() }),
  ),
});
export type ApplyStatus = Static<typeof ApplyStatus>;

/** A purge or prefetch job with its progress on every node (GET /v1/jobs). */
export const Job = Type.Object({
  id: Type.Integer(),
  type: JobType,
  site_id: Type.Integer(),
  urls: Type.Array(Type.String()),
  created_at: Type.String(),
  progress: Type.Object({
    total: Type.Integer(),
    done: Type.Integer(),
    failed: Type.Integer(),
    pending: Type.Integer(),
  }),
  nodes: Type.Array(
    Type.Object({
      node_id: Type.Integer(),
      name: Type.String(),
      state: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('failed')]),
      error: Type.String(),
    }),
  ),
});
export type Job = Static<typeof Job>;
