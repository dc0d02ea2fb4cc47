import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../../db/schema.ts';

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A new delivery, held (next_attempt_at in the future) while its first attempt runs. */
export async function insertDelivery(
  db: Kysely<Database>,
  delivery: { userId: number; url: string; subject: string; payload: string },
  heldUntil: number,
  now: number,
): Promise<WebhookDeliveryRow> {
  return db
    .insertInto('webhook_deliveries')
    .values({
      user_id: delivery.userId,
      url: delivery.url,
      subject: delivery.subject,
      payload: delivery.payload,
      attempts: 0,
      state: 'pending',
      next_attempt_at: heldUntil,
      last_error: '',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const dueDeliveries = (db: Kysely<Database>, now: number, limit: number) =>
  db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();

/**
 * Takes a due row for one attempt until `heldUntil`; false when another worker (or master) took it
 * first. One conditional statement: of two masters claiming the row at once, one updates it.
 */
export async function claimDelivery(db: Kysely<Database>, row: WebhookDeliveryRow, heldUntil: number) {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: heldUntil })
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '=', row.next_attempt_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an attempt on a row claimed until `heldUntil`; nothing when the claim ran out and another
 * worker claimed the row meanwhile (its own attempt records itself).
 */
export async function finishDelivery(
  db: Kysely<Database>,
  claim: { id: number; heldUntil: number },
  outcome: { attempts: number; state: string; error: string; nextAt: number },
  now: number,
) {
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: outcome.attempts,
      state: outcome.state,
      last_error: outcome.error,
      next_attempt_at: outcome.nextAt,
      updated_at: now,
    })
    .where('id', '=', claim.id)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '=', claim.heldUntil)
    .execute();
}
