import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * One stage of a notice about one object, claimed once in `expiry_notices` before it is sent, so that
 * two masters never both send it. `period` tells the object's episodes apart (an expiry time: a
 * renewal starts afresh; or a month), `stage` the step within one (days before expiry, or a percent).
 */
export interface NoticeClaim {
  kind: 'cert' | 'package' | 'package_funds' | 'package_traffic';
  objectId: number;
  period: number;
  stage: number;
}

/** Claims the stage; answers false when it was claimed already. */
export async function claimNotice(db: Kysely<Database>, claim: NoticeClaim, now: number): Promise<boolean> {
  const row = await db
    .insertInto('expiry_notices')
    .values({ kind: claim.kind, object_id: claim.objectId, expires_at: claim.period, days: claim.stage, sent_at: now })
    .onConflict((conflict) => conflict.doNothing())
    .returning('object_id')
    .executeTakeFirst();
  return Boolean(row);
}
