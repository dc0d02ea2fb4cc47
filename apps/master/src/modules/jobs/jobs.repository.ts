import type { EdgeJob, Job, JobType } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import { newestFirstPage } from '../../db/paging.ts';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';

const PENDING_JOBS_LIMIT = 1000;

const pendingJobRows = prepared(
  (db: Kysely<Database>, nodeId: number) =>
    db
      .selectFrom('job_nodes')
      .innerJoin('jobs', 'jobs.id', 'job_nodes.job_id')
      .select(['jobs.id', 'jobs.type', 'jobs.site_id', 'jobs.urls'])
      .where('job_nodes.node_id', '=', nodeId)
      .where('job_nodes.state', '=', 'pending')
      .orderBy('jobs.id')
      .limit(PENDING_JOBS_LIMIT),
  (nodeId) => [nodeId, 'pending', PENDING_JOBS_LIMIT],
);

/** Jobs a node has not reported on yet; they ride along with its next snapshot (asked with every one). */
export async function pendingJobsFor(db: Kysely<Database>, nodeId: number): Promise<EdgeJob[]> {
  const rows = await pendingJobRows(db, nodeId);
  return rows.map((row) => ({
    id: row.id,
    type: row.type as JobType,
    site_id: row.site_id,
    urls: JSON.parse(row.urls) as string[],
  }));
}

export async function insertJob(
  db: Kysely<Database>,
  job: { userId: number; type: JobType; siteId: number; urls: string[] },
  now: number,
) {
  const row = await db
    .insertInto('jobs')
    .values({
      user_id: job.userId,
      type: job.type,
      site_id: job.siteId,
      urls: JSON.stringify(job.urls),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const nodes = await db.selectFrom('nodes').select('id').where('enabled', '=', 1).execute();
  if (nodes.length > 0) {
    await db
      .insertInto('job_nodes')
      .values(nodes.map((node) => ({ job_id: row.id, node_id: node.id, state: 'pending', error: '', updated_at: now })))
      .execute();
  }
  return row.id;
}

export async function listJobs(
  db: Kysely<Database>,
  owner: Owner,
  page: number,
  limit: number,
): Promise<{ list: Job[]; total: number }> {
  const scoped = db.selectFrom('jobs').$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId));
  const { rows, total } = await newestFirstPage(scoped, page, limit);
  const progress =
    rows.length === 0
      ? []
      : await db
          .selectFrom('job_nodes')
          .innerJoin('nodes', 'nodes.id', 'job_nodes.node_id')
          .select(['job_nodes.job_id', 'job_nodes.node_id', 'nodes.name', 'job_nodes.state', 'job_nodes.error'])
          .where(
            'job_nodes.job_id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
  const list = rows.map((row) => {
    const nodes = progress
      .filter((entry) => entry.job_id === row.id)
      .map((entry) => ({
        node_id: entry.node_id,
        name: entry.name,
        state: entry.state as Job['nodes'][number]['state'],
        error: entry.error,
      }));
    const count = (state: string) => nodes.filter((node) => node.state === state).length;
    return {
      id: row.id,
      type: row.type as JobType,
      site_id: row.site_id,
      urls: JSON.parse(row.urls) as string[],
      created_at: new Date(row.created_at).toISOString(),
      progress: { total: nodes.length, done: count('done'), failed: count('failed'), pending: count('pending') },
      nodes,
    };
  });
  return { list, total };
}
