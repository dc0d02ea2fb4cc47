import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
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

/**
 * Makes the transactions that call it with the same `name` take turns across masters, for a short
 * check-then-write such as claiming a durable task: writing the row of `name` holds its lock on
 * PostgreSQL until the transaction ends; SQLite has one writer at a time already. Long work takes a
 * lease instead (`runUnderLease`), which a master that dies while holding it loses on its own.
 */
export async function takeTurn(trx: Transaction<Database>, name: string) {
  await trx
    .insertInto('health_leases')
    .values({ name: `turn:${name}`, holder: '', expires_at: 0 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ expires_at: 0 }))
    .execute();
}

export interface LeaseOptions {
  /** How long a claim lasts unless renewed: a holder that died is taken over after this. */
  ttlMs: number;
  /** This holder's name; a new one per call by default. */
  holder?: string | undefined;
  /** How often a holder waiting for the lease looks again; a tenth of the lease by default. */
  pollMs?: number | undefined;
  /** Stops waiting for the lease (the call then throws the signal's reason). */
  signal?: AbortSignal | undefined;
}

// A holder renews this many times per lease, so that a slow renewal or two never lose it.
const RENEWALS_PER_LEASE = 3;

/**
 * Waits until the lease `name` is free (let go, or run out because its holder died), then runs
 * `work` while renewing the lease, and lets it go after. `lost` is aborted when a renewal finds that
 * another holder has the lease (this master was cut off from the database for a whole lease): work
 * that can stop part-way should.
 */
export async function runUnderLease<T>(
  db: Kysely<Database>,
  name: string,
  work: (lost: AbortSignal) => Promise<T>,
  options: LeaseOptions,
): Promise<T> {
  const { ttlMs } = options;
  const holder = options.holder ?? randomUUID();
  const pollMs = options.pollMs ?? Math.max(10, Math.floor(ttlMs / 10));
  while (!(await claimLease(db, name, holder, Date.now(), ttlMs))) {
    await delay(pollMs, undefined, { signal: options.signal });
  }
  const lost = new AbortController();
  let renewedAt = Date.now();
  const renew = async () => {
    const now = Date.now();
    try {
      if (await claimLease(db, name, holder, now, ttlMs)) {
        renewedAt = now;
        return;
      }
    } catch {
      // The database did not answer: the lease holds until it runs out.
      if (now - renewedAt < ttlMs) return;
    }
    lost.abort(new Error(`the lease ${name} was taken over by another master`));
  };
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = renewing.then(renew);
    },
    Math.max(1, Math.floor(ttlMs / RENEWALS_PER_LEASE)),
  );
  timer.unref();
  try {
    return await work(lost.signal);
  } finally {
    clearInterval(timer);
    await renewing;
    await releaseLease(db, name, holder).catch(() => undefined);
  }
}
