import type { Kysely, Selectable } from 'kysely';
import type { CertificationsTable, Database } from '../../db/schema.ts';

export type CertificationRow = Selectable<CertificationsTable> & { account: string | null };

const withAccount = (db: Kysely<Database>) =>
  db
    .selectFrom('certifications')
    .leftJoin('users', 'users.id', 'certifications.user_id')
    .selectAll('certifications')
    .select('users.username as account');

export interface CertificationFilter {
  /** The caller's own id for an ordinary user; any user (or none: everyone) for an admin. */
  userId?: number | undefined;
  state?: string | undefined;
}

export async function listCertifications(
  db: Kysely<Database>,
  filter: CertificationFilter,
  page: { offset: number; limit: number },
) {
  let query = withAccount(db);
  let count = db.selectFrom('certifications').select((eb) => eb.fn.countAll().as('n'));
  if (filter.userId !== undefined) {
    query = query.where('certifications.user_id', '=', filter.userId);
    count = count.where('user_id', '=', filter.userId);
  }
  if (filter.state !== undefined) {
    query = query.where('certifications.state', '=', filter.state);
    count = count.where('state', '=', filter.state);
  }
  const [list, total] = await Promise.all([
    query.orderBy('certifications.id', 'desc').offset(page.offset).limit(page.limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

export const findCertification = (db: Kysely<Database>, id: number) =>
  withAccount(db).where('certifications.id', '=', id).executeTakeFirst();

/** The user's newest request in one of the states, if any. */
export const findOpenCertification = (db: Kysely<Database>, userId: number, states: readonly string[]) =>
  db
    .selectFrom('certifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', 'in', [...states])
    .orderBy('id', 'desc')
    .executeTakeFirst();

export interface NewCertification {
  userId: number;
  type: string;
  name: string;
  idNumber: string;
}

export async function insertCertification(db: Kysely<Database>, request: NewCertification, now: number) {
  const { id } = await db
    .insertInto('certifications')
    .values({
      user_id: request.userId,
      type: request.type,
      name: request.name,
      id_number: request.idNumber,
      state: 'pending',
      reviewer_id: null,
      created_at: now,
      reviewed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/** Decides a pending request; false when it was decided already (two reviewers at once: one wins). */
export async function reviewCertification(
  db: Kysely<Database>,
  id: number,
  review: { state: 'approved' | 'rejected'; reason: string; reviewerId: number },
  now: number,
) {
  const result = await db
    .updateTable('certifications')
    .set({ state: review.state, reason: review.reason, reviewer_id: review.reviewerId, reviewed_at: now })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** users.certified follows the newest decision: on when approved. */
export async function setUserCertified(db: Kysely<Database>, userId: number, certified: boolean, now: number) {
  await db
    .updateTable('users')
    .set({ certified: certified ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
