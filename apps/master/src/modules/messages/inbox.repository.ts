import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, MessagesTable } from '../../db/schema.ts';

export type MessageRow = Selectable<MessagesTable> & { account: string | null };

export interface MessageFilter {
  /** The caller's own id; undefined only for an admin querying everyone's. */
  userId?: number | undefined;
  type?: string | undefined;
  read?: boolean | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

const withAccount = (db: Kysely<Database>) =>
  db
    .selectFrom('messages')
    .leftJoin('users', 'users.id', 'messages.user_id')
    .selectAll('messages')
    .select('users.username as account');

/** The admin's query of everyone's messages counts up to here: past it the answer says `total_capped`. */
export const MESSAGE_COUNT_CAP = 10_000;

/** A user's own list counts them all; `capped` (everyone's) stops counting past MESSAGE_COUNT_CAP. */
export async function listMessageRows(
  db: Kysely<Database>,
  filter: MessageFilter,
  page: { offset: number; limit: number; order: 'asc' | 'desc'; capped?: boolean },
) {
  let query = withAccount(db);
  let count = db.selectFrom('messages').select('id');
  if (filter.userId !== undefined) {
    query = query.where('messages.user_id', '=', filter.userId);
    count = count.where('user_id', '=', filter.userId);
  }
  if (filter.type !== undefined) {
    query = query.where('messages.type', '=', filter.type);
    count = count.where('type', '=', filter.type);
  }
  if (filter.read !== undefined) {
    query = query.where('messages.is_read', '=', filter.read ? 1 : 0);
    count = count.where('is_read', '=', filter.read ? 1 : 0);
  }
  if (filter.from !== undefined) {
    query = query.where('messages.created_at', '>=', filter.from);
    count = count.where('created_at', '>=', filter.from);
  }
  if (filter.to !== undefined) {
    query = query.where('messages.created_at', '<', filter.to);
    count = count.where('created_at', '<', filter.to);
  }
  const counted = db
    .selectFrom((page.capped ? count.limit(MESSAGE_COUNT_CAP + 1) : count).as('matching'))
    .select((eb) => eb.fn.countAll().as('n'));
  const [list, total] = await Promise.all([
    query.orderBy('messages.id', page.order).offset(page.offset).limit(page.limit).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  const n = Number(total.n);
  return n > MESSAGE_COUNT_CAP ? { list, total: MESSAGE_COUNT_CAP, total_capped: true } : { list, total: n };
}

export async function countUnread(db: Kysely<Database>, userId: number) {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One message, only if it belongs to the user. */
export const findOwnMessage = (db: Kysely<Database>, userId: number, id: number) =>
  withAccount(db).where('messages.id', '=', id).where('messages.user_id', '=', userId).executeTakeFirst();

export async function insertMessage(
  db: Kysely<Database>,
  message: { userId: number; type: string; title: string; body: string },
  now: number,
) {
  const { id } = await db
    .insertInto('messages')
    .values({
      user_id: message.userId,
      type: message.type,
      title: message.title,
      body: message.body,
      is_read: 0,
      read_at: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/** Marks the user's messages (some ids, or all) read or unread; answers how many changed. */
export async function setRead(
  db: Kysely<Database>,
  userId: number,
  ids: readonly number[] | 'all',
  read: boolean,
  now: number,
) {
  let query = db
    .updateTable('messages')
    .set({ is_read: read ? 1 : 0, read_at: read ? now : null })
    .where('user_id', '=', userId)
    .where('is_read', '=', read ? 0 : 1);
  if (ids !== 'all') query = query.where('id', 'in', [...ids]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteOwnMessage(db: Kysely<Database>, userId: number, id: number) {
  const result = await db.deleteFrom('messages').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export interface Recipients {
  /** undefined: every enabled user; a number: that group's; null: users in no group. */
  groupId?: number | null | undefined;
}

const recipientQuery = (db: Kysely<Database>, recipients: Recipients) => {
  let query = db.selectFrom('users').where('users.status', '=', 'enabled');
  if (recipients.groupId === null) query = query.where('users.group_id', 'is', null);
  else if (recipients.groupId !== undefined) query = query.where('users.group_id', '=', recipients.groupId);
  return query;
};

/** Users per INSERT … SELECT: each statement holds the write lock briefly, however many users there are. */
export const BROADCAST_BATCH = 5000;

/**
 * The in-app message to every recipient who has not turned in-app off for the type: one INSERT …
 * SELECT per id range of users, so 100k users cost 20 statements and no rows cross the wire.
 */
export async function insertBroadcast(
  db: Kysely<Database>,
  recipients: Recipients,
  message: { type: string; title: string; body: string },
  now: number,
) {
  let inserted = 0;
  let after = 0;
  for (;;) {
    const last = await recipientQuery(db, recipients)
      .select('users.id')
      .where('users.id', '>', after)
      .orderBy('users.id')
      .offset(BROADCAST_BATCH - 1)
      .limit(1)
      .executeTakeFirst();
    const upTo = last ? Number(last.id) : undefined;
    let batch = recipientQuery(db, recipients)
      .where('users.id', '>', after)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message_subscriptions as s')
              .select(sql.lit(1).as('one'))
              .whereRef('s.user_id', '=', 'users.id')
              .where('s.type', '=', message.type)
              .where('s.in_app', '=', 0),
          ),
        ),
      );
    if (upTo !== undefined) batch = batch.where('users.id', '<=', upTo);
    const result = await db
      .insertInto('messages')
      .columns(['user_id', 'type', 'title', 'body', 'is_read', 'read_at', 'created_at'])
      .expression(
        batch.select([
          'users.id',
          sql.lit(message.type).as('type'),
          sql.val(message.title).as('title'),
          sql.val(message.body).as('body'),
          sql.lit(0).as('is_read'),
          sql<number | null>`null`.as('read_at'),
          sql.val(now).as('created_at'),
        ]),
      )
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    if (upTo === undefined) break;
    after = upTo;
  }
  return inserted;
}

/** Recipients who take the type by a channel other than in-app (only they have a row saying so). */
export async function extraChannelRecipients(db: Kysely<Database>, recipients: Recipients, type: string) {
  const rows = await recipientQuery(db, recipients)
    .innerJoin('message_subscriptions as s', 's.user_id', 'users.id')
    .where('s.type', '=', type)
    .where((eb) => eb.or([eb('s.email', '=', 1), eb('s.sms', '=', 1), eb('s.webhook', '=', 1)]))
    .select('users.id')
    .execute();
  return rows.map((row) => Number(row.id));
}

export async function countRecipients(db: Kysely<Database>, recipients: Recipients) {
  const row = await recipientQuery(db, recipients)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findRecipient = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('users').select(['id', 'type', 'email', 'phone', 'status']).where('id', '=', userId).executeTakeFirst();

export const listSubscriptionRows = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('message_subscriptions').selectAll().where('user_id', '=', userId).execute();

export const findSubscriptionRow = (db: Kysely<Database>, userId: number, type: string) =>
  db
    .selectFrom('message_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirst();

export async function saveSubscriptionRow(
  db: Kysely<Database>,
  row: { userId: number; type: string; in_app: boolean; email: boolean; sms: boolean; webhook: boolean },
  now: number,
) {
  const values = {
    in_app: row.in_app ? 1 : 0,
    email: row.email ? 1 : 0,
    sms: row.sms ? 1 : 0,
    webhook: row.webhook ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('message_subscriptions')
    .values({ user_id: row.userId, type: row.type, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'type']).doUpdateSet(values))
    .execute();
}

export const deleteSubscriptionRow = (db: Kysely<Database>, userId: number, type: string) =>
  db.deleteFrom('message_subscriptions').where('user_id', '=', userId).where('type', '=', type).execute();

export const findWebhook = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('message_webhooks').selectAll().where('user_id', '=', userId).executeTakeFirst();

export async function saveWebhook(
  db: Kysely<Database>,
  userId: number,
  changes: { url?: string | undefined; secret?: string | undefined },
  now: number,
) {
  const set = {
    ...(changes.url !== undefined && { url: changes.url }),
    ...(changes.secret !== undefined && { secret: changes.secret }),
    updated_at: now,
  };
  await db
    .insertInto('message_webhooks')
    .values({ user_id: userId, url: changes.url ?? '', secret: changes.secret ?? '', updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
    .execute();
}
