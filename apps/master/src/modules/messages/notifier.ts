import type { MessageType } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import {
  extraChannelRecipients,
  findRecipient,
  findSubscriptionRow,
  findWebhook,
  insertBroadcast,
  insertMessage,
  type Recipients,
} from './inbox.repository.ts';
import type { Messenger } from './messenger.ts';
import { channelsOf, typesFor } from './subscriptions.ts';
import { createWebhookSender, type WebhookOptions } from './webhook-delivery.ts';

export interface NotifierOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  messenger: Messenger;
  secrets: SecretBox;
  webhooks?: WebhookOptions | undefined;
}

export interface Notice {
  title: string;
  body: string;
}

/** What notify did for one user, channel by channel (skipped: not subscribed or nowhere to send). */
export interface NotifyResult {
  message_id: number | null;
  email: string;
  sms: string;
  webhook: string;
}

/**
 * The one way a user is told something: an in-app message, and email, SMS and a signed webhook as
 * their subscription for the type says. Email and SMS go through the messenger (and its send log);
 * webhooks through a persisted queue with retries, every attempt in the same log.
 */
export function createNotifier(options: NotifierOptions) {
  const { db, log, messenger, secrets } = options;
  const webhookOptions = options.webhooks ?? {};
  const sender = createWebhookSender(db, log, webhookOptions);

  const webhookOf = async (userId: number) => {
    const hook = await findWebhook(db, userId);
    if (!hook?.url || !hook.secret) return undefined;
    return { url: hook.url, secret: secrets.open(hook.secret) };
  };

  async function deliver(userId: number, type: MessageType, notice: Notice, inApp: 'subscribed' | 'skip', now: number) {
    const result: NotifyResult = { message_id: null, email: 'skipped', sms: 'skipped', webhook: 'skipped' };
    const user = await findRecipient(db, userId);
    if (!user || !typesFor(user.type).includes(type)) return result;
    const channels = channelsOf(type, await findSubscriptionRow(db, userId, type));
    if (channels.in_app && inApp === 'subscribed') {
      result.message_id = await insertMessage(db, { userId, type, ...notice }, now);
    }
    if (channels.email && user.email) {
      result.email = await messenger.send({
        channel: 'email',
        target: user.email,
        subject: notice.title,
        body: notice.body,
      });
    }
    if (channels.sms && user.phone) {
      result.sms = await messenger.send({
        channel: 'sms',
        target: user.phone,
        subject: notice.title,
        body: `${notice.title}: ${notice.body}`,
      });
    }
    if (channels.webhook) {
      const hook = await webhookOf(userId);
      if (hook) {
        const sent = await sender.send({ userId, type, ...notice, ...hook, messageId: result.message_id }, now);
        result.webhook = sent.ok ? 'sent' : 'queued';
      }
    }
    return result;
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let round: Promise<unknown> = Promise.resolve();
  const runDue = (now = Date.now()) => sender.runDue(async (userId) => (await webhookOf(userId))?.secret, now);

  return {
    notify: (userId: number, type: MessageType, notice: Notice, now = Date.now()) =>
      deliver(userId, type, notice, 'subscribed', now),

    /**
     * One message to many users (a group, everyone): the in-app rows in batched INSERT … SELECT,
     * then the other channels for the few who asked for them. Answers how many got it in the app.
     */
    async broadcast(recipients: Recipients, type: MessageType, notice: Notice, now = Date.now()) {
      const inserted = await insertBroadcast(db, recipients, { type, ...notice }, now);
      for (const userId of await extraChannelRecipients(db, recipients, type)) {
        try {
          await deliver(userId, type, notice, 'skip', now);
        } catch (error) {
          log.warn({ err: error, userId }, 'a broadcast message was not delivered');
        }
      }
      return inserted;
    },

    /** Posts a signed test message to the user's webhook now; logged, and retried like any other when it fails. */
    async testWebhook(userId: number, now = Date.now()) {
      const hook = await webhookOf(userId);
      if (!hook) return { status: 'failed' as const, error: 'set a webhook URL and generate a secret first' };
      const notice = { title: 'Rampart webhook test', body: 'This is a test message from Rampart.' };
      const sent = await sender.send({ userId, type: 'system', ...notice, ...hook, messageId: null }, now);
      return { status: sent.ok ? ('sent' as const) : ('failed' as const), error: sent.error };
    },

    /** Retries due webhook deliveries (the background loop calls it; tests call it with a later clock). */
    runDueWebhooks: runDue,

    webhookOptions,
    log,

    /** Every master runs this loop: a due delivery is claimed before it is sent, so one master sends it. */
    start() {
      stopped = false;
      const tick = () => {
        round = runDue()
          .catch((error) => log.error({ err: error }, 'webhook retry round failed'))
          .finally(() => {
            if (stopped) return;
            timer = setTimeout(tick, sender.POLL_MS);
            timer.unref();
          });
      };
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
