import type { Certification, CertifyBody, CertifyQuery, CertifyReviewBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { sessionCache } from '../auth/session-cache.ts';
import type { Owner } from '../tenancy.ts';
import {
  type CertificationRow,
  findCertification,
  findOpenCertification,
  insertCertification,
  listCertifications,
  reviewCertification,
  setUserCertified,
} from './certify.repository.ts';
import { creditCodeProblem, maskIdNumber, residentIdProblem } from './id-numbers.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function presentCertification(row: CertificationRow, view: 'owner' | 'admin'): Certification {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    account: row.account,
    type: row.type === 'company' ? 'company' : 'personal',
    name: row.name,
    id_number: view === 'admin' ? row.id_number : maskIdNumber(row.id_number),
    state: row.state === 'approved' ? 'approved' : row.state === 'rejected' ? 'rejected' : 'pending',
    reason: row.reason,
    created_at: new Date(Number(row.created_at)).toISOString(),
    reviewed_at: iso(row.reviewed_at),
    reviewer_id: row.reviewer_id === null ? null : Number(row.reviewer_id),
  };
}

/** POST /v1/user/certify: one request awaits review at a time; an approved user is certified already. */
export async function submitCertification(db: Kysely<Database>, userId: number, body: CertifyBody, now = Date.now()) {
  const idNumber = body.id_number.toUpperCase();
  const problem = body.type === 'personal' ? residentIdProblem(idNumber) : creditCodeProblem(idNumber);
  if (problem) {
    const what = body.type === 'personal' ? 'a resident ID number' : 'a unified social credit code';
    throw invalidParam('body/id_number', `${problem} (${what})`);
  }
  const open = await findOpenCertification(db, userId, ['pending', 'approved']);
  if (open?.state === 'pending') throw new AppError('conflict', 'a certification request is awaiting review already');
  if (open?.state === 'approved') throw new AppError('conflict', 'you are certified already');
  try {
    const id = await insertCertification(db, { userId, type: body.type, name: body.name.trim(), idNumber }, now);
    const row = await findCertification(db, id);
    if (!row) throw new AppError('not_found', 'the request was removed');
    return presentCertification(row, 'owner');
  } catch (error) {
    // Two submissions at once: the one-pending index lets one in.
    if (isUniqueViolation(error)) throw new AppError('conflict', 'a certification request is awaiting review already');
    throw error;
  }
}

/**
 * GET /v1/user/certify: a user's own requests (masked); for an admin whose scope reaches every user
 * (admin:user or admin:sys), everyone's, or one user's.
 */
export async function listCertificationsFor(db: Kysely<Database>, owner: Owner, query: CertifyQuery) {
  const every = owner.kind === 'admin';
  if (!every && query.user_id !== undefined && query.user_id !== owner.userId) {
    throw new AppError('forbidden', "user_id: only an administrator reads another user's certification");
  }
  const limit = query.limit ?? 20;
  const offset = ((query.page ?? 1) - 1) * limit;
  const filter = { userId: every ? query.user_id : owner.userId, state: query.state };
  const { list, total } = await listCertifications(db, filter, { offset, limit });
  return { list: list.map((row) => presentCertification(row, every ? 'admin' : 'owner')), total };
}

/** PUT /v1/user/certify/{id} (admin): approve, or reject with a reason; approval certifies the user. */
export async function reviewCertificationRequest(
  db: Kysely<Database>,
  reviewerId: number,
  id: number,
  body: CertifyReviewBody,
  now = Date.now(),
) {
  const reason = (body.reason ?? '').trim();
  if (body.state === 'rejected' && !reason) throw invalidParam('body/reason', 'is required to reject: say why');
  const row = await findCertification(db, id);
  if (!row) throw new AppError('not_found', `id: no certification request ${id}`);
  await db.transaction().execute(async (trx) => {
    const review = { state: body.state, reason: body.state === 'rejected' ? reason : '', reviewerId };
    if (!(await reviewCertification(trx, id, review, now))) {
      throw new AppError('conflict', `this request was ${row.state} already`);
    }
    if (body.state === 'approved') await setUserCertified(trx, Number(row.user_id), true, now);
  });
  // The user row of cached sessions carries `certified`.
  sessionCache.forgetUser(Number(row.user_id));
  const updated = await findCertification(db, id);
  if (!updated) throw new AppError('not_found', `id: no certification request ${id}`);
  return presentCertification(updated, 'admin');
}
