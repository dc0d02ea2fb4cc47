import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Leases in the database (table health_leases, named for its first user): a background duty that
 * must run on one master at a time is held by one `holder` until `expires_at`; the holder renews it
 * while it works, and another master takes it over once it has run out (its holder died) or was let go.
 */
/** Takes or renews the lease `name` for `holder`; false while another holder's lease runs. */
export async function claimLease(db: Kysely<Database>, name: string, holder: string, now: number, ttlMs: number) {
  await db
    .insertInto('health_leases')
    .values({ name, holder: '', expires_at: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('health_leases')
    .set({ holder, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets the lease go at once (a master stopping), so another master takes over without waiting. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string) {
  await db
    .updateTable('health_leases')
    .set({ expires_at: 0 })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
