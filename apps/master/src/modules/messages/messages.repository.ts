import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type MessageChannel = 'email' | 'sms';
/** The send log also records each webhook attempt. */
export type SendChannel = MessageChannel | 'webhook';
/** sent: delivered to the SMTP server, SMS provider or webhook; outbox: kept here for lack of one; failed: see error. */
export type MessageStatus = 'sent' | 'outbox' | 'failed';

export interface MessageRecord {
  channel: SendChannel;
  target: string;
  subject: string;
  body: string;
  status: MessageStatus;
  error: string;
}

export async function recordMessage(db: Kysely<Database>, message: MessageRecord, now: number) {
  await db
    .insertInto('message_sends')
    .values({ ...message, created_at: now })
    .execute();
}

export async function listMessages(db: Kysely<Database>, page: number, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('message_sends')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('message_sends')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
    total: Number(count.n),
  };
}
