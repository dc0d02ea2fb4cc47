import {
  type Message,
  type MessageQuery,
  type MessageReadBody,
  type MessageSendBody,
  type MessageSubscription,
  type MessageSubscriptionBody,
  type MessageType,
  PERMISSIONS,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import type { Owner } from '../tenancy.ts';
import {
  countRecipients,
  countUnread,
  deleteOwnMessage,
  deleteSubscriptionRow,
  findOwnMessage,
  findRecipient,
  findWebhook,
  listMessageRows,
  listSubscriptionRows,
  type MessageRow,
  saveSubscriptionRow,
  saveWebhook,
  setRead,
} from './inbox.repository.ts';
import type { Notifier } from './notifier.ts';
import { channelsOf, defaultChannels, entry, sameChannels, typesFor } from './subscriptions.ts';
import { newWebhookSecret } from './webhook-delivery.ts';
import { checkWebhookUrl } from './webhook-target.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export const presentMessage = (row: MessageRow): Message => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  account: row.account,
  type: row.type as MessageType,
  title: row.title,
  body: row.body,
  read: row.is_read === 1,
  created_at: new Date(Number(row.created_at)).toISOString(),
  read_at: iso(row.read_at),
});

/**
 * GET /v1/messages: the caller's own; scope=all everyone's, by user, type, read state and time, for
 * a caller whose scope reaches every user's rows (an administrator holding admin:sys).
 */
export async function listMessagesFor(db: Kysely<Database>, viewer: Owner, query: MessageQuery) {
  const all = query.scope === 'all';
  if (all && viewer.kind !== 'admin')
    throw new AppError('forbidden', `scope: only an administrator (${PERMISSIONS.adminSys}) reads everyone's messages`);
  if (!all && query.user_id !== undefined && query.user_id !== viewer.userId) {
    throw invalidParam('querystring/user_id', 'needs scope=all (administrators only)');
  }
  const from = query.from === undefined ? undefined : Date.parse(query.from);
  const to = query.to === undefined ? undefined : Date.parse(query.to);
  if (from !== undefined && to !== undefined && to <= from) throw invalidParam('querystring/to', 'must be after from');
  const limit = query.limit ?? 20;
  const offset = ((query.page ?? 1) - 1) * limit;
  const filter = { userId: all ? query.user_id : viewer.userId, type: query.type, read: query.read, from, to };
  const [{ list, ...counted }, unread] = await Promise.all([
    listMessageRows(db, filter, { offset, limit, order: query.order ?? 'desc', capped: all }),
    countUnread(db, viewer.userId),
  ]);
  return { list: list.map(presentMessage), ...counted, unread };
}

async function ownMessage(db: Kysely<Database>, userId: number, id: number) {
  const row = await findOwnMessage(db, userId, id);
  // Another user's message answers like a missing one: ids reveal nothing.
  if (!row) throw new AppError('not_found', `id: no message ${id}`);
  return row;
}

export const readMessage = async (db: Kysely<Database>, userId: number, id: number) =>
  presentMessage(await ownMessage(db, userId, id));

export async function markMessage(db: Kysely<Database>, userId: number, id: number, read: boolean, now = Date.now()) {
  await ownMessage(db, userId, id);
  await setRead(db, userId, [id], read, now);
  return presentMessage(await ownMessage(db, userId, id));
}

export async function removeMessage(db: Kysely<Database>, userId: number, id: number) {
  if (!(await deleteOwnMessage(db, userId, id))) throw new AppError('not_found', `id: no message ${id}`);
  return null;
}

/** POST /v1/messages/read: some ids (others' are ignored), or all. */
export async function markRead(db: Kysely<Database>, userId: number, body: MessageReadBody, now = Date.now()) {
  if (body.all !== true && !body.ids) throw invalidParam('body', 'give ids (1 to 1000 message ids) or all: true');
  if (body.all === true && body.ids) throw invalidParam('body', 'give either ids or all, not both');
  const updated = await setRead(db, userId, body.all === true ? 'all' : [...new Set(body.ids)], true, now);
  return { updated, unread: await countUnread(db, userId) };
}

/** POST /v1/messages (admin:sys): to one user through their subscription, or to a group or everyone. */
export async function sendMessage(db: Kysely<Database>, notifier: Notifier, body: MessageSendBody) {
  const type = body.type ?? 'system';
  const notice = { title: body.title.trim(), body: body.body.trim() };
  if (body.target === 'user') {
    if (body.user_id === undefined) throw invalidParam('body/user_id', 'is required when target is user');
    const user = await findRecipient(db, body.user_id);
    if (!user) throw new AppError('not_found', `user_id: user ${body.user_id} does not exist`);
    const result = await notifier.notify(body.user_id, type, notice);
    return { recipients: result.message_id === null ? 0 : 1 };
  }
  if (body.target === 'group') {
    if (body.group_id === undefined)
      throw invalidParam('body/group_id', 'is required when target is group (0: users in no group)');
    if (body.group_id !== 0) {
      const group = await db.selectFrom('user_groups').select('id').where('id', '=', body.group_id).executeTakeFirst();
      if (!group) throw new AppError('not_found', `group_id: user group ${body.group_id} does not exist`);
    }
    const recipients = { groupId: body.group_id === 0 ? null : body.group_id };
    if ((await countRecipients(db, recipients)) === 0)
      throw invalidParam('body/group_id', 'the group has no enabled users');
    return { recipients: await notifier.broadcast(recipients, type, notice) };
  }
  return { recipients: await notifier.broadcast({}, type, notice) };
}

async function presentSubscription(
  db: Kysely<Database>,
  user: { id: number; type: number },
): Promise<MessageSubscription> {
  const rows = new Map((await listSubscriptionRows(db, user.id)).map((row) => [row.type, row]));
  const hook = await findWebhook(db, user.id);
  return {
    types: typesFor(user.type).map((type) => entry(type, channelsOf(type, rows.get(type)))),
    webhook_url: hook?.url ?? '',
    has_secret: Boolean(hook?.secret),
  };
}

export const readSubscription = presentSubscription;

/** PUT /v1/messages/sub: channels per type, the webhook URL, a new secret (shown once), a test post. */
export async function updateSubscription(
  db: Kysely<Database>,
  secrets: SecretBox,
  notifier: Notifier,
  user: { id: number; type: number },
  body: MessageSubscriptionBody,
  now = Date.now(),
): Promise<MessageSubscription> {
  const allowed = typesFor(user.type);
  for (const [index, item] of (body.types ?? []).entries()) {
    if (!allowed.includes(item.type))
      throw invalidParam(`body/types/${index}/type`, `${item.type} is for administrators only`);
  }
  const url =
    body.webhook_url === undefined || body.webhook_url === ''
      ? body.webhook_url
      : checkWebhookUrl(body.webhook_url, Boolean(notifier.webhookOptions.allowPrivateTargets));
  const hook = await findWebhook(db, user.id);
  const wantsWebhook = (body.types ?? []).some((item) => item.webhook);
  const urlAfter = url ?? hook?.url ?? '';
  if (wantsWebhook && !urlAfter) throw invalidParam('body/webhook_url', 'is required to receive messages by webhook');
  const secret = body.generate_secret ? newWebhookSecret() : undefined;
  await db.transaction().execute(async (trx) => {
    for (const item of body.types ?? []) {
      const { type, ...channels } = item;
      if (sameChannels(channels, defaultChannels(type))) await deleteSubscriptionRow(trx, user.id, type);
      else await saveSubscriptionRow(trx, { userId: user.id, type, ...channels }, now);
    }
    if (url !== undefined || secret !== undefined) {
      await saveWebhook(trx, user.id, { url, secret: secret === undefined ? undefined : secrets.seal(secret) }, now);
    }
  });
  const answer = await presentSubscription(db, user);
  if (secret) answer.webhook_secret = secret;
  if (body.send_test) answer.test = await notifier.testWebhook(user.id, now);
  return answer;
}
