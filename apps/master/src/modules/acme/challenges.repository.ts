import type { EdgeAcmeChallenge } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The HTTP-01 challenges every edge answers right now (part of each snapshot). */
export const liveChallenges = (db: Kysely<Database>): Promise<EdgeAcmeChallenge[]> =>
  db.selectFrom('acme_challenges').select(['token', 'key_authorization']).orderBy('token').execute();

export async function insertChallenges(
  db: Kysely<Database>,
  taskId: number,
  challenges: readonly EdgeAcmeChallenge[],
  now: number,
) {
  await db.deleteFrom('acme_challenges').where('task_id', '=', taskId).execute();
  if (challenges.length === 0) return;
  await db
    .insertInto('acme_challenges')
    .values(challenges.map((entry) => ({ ...entry, task_id: taskId, created_at: now })))
    .execute();
}

export const deleteChallengesOf = (db: Kysely<Database>, taskId: number) =>
  db.deleteFrom('acme_challenges').where('task_id', '=', taskId).executeTakeFirst();

/** Challenges whose task no longer runs (a master that died mid-issuance left them). */
export async function orphanChallenges(db: Kysely<Database>): Promise<number> {
  const rows = await db
    .selectFrom('acme_challenges')
    .leftJoin('tasks', 'tasks.id', 'acme_challenges.task_id')
    .select('acme_challenges.token')
    .where((eb) => eb.or([eb('tasks.id', 'is', null), eb('tasks.state', '!=', 'running')]))
    .execute();
  return rows.length;
}

export async function deleteOrphanChallenges(db: Kysely<Database>) {
  const running = db.selectFrom('tasks').select('id').where('state', '=', 'running');
  await db.deleteFrom('acme_challenges').where('task_id', 'not in', running).execute();
}
