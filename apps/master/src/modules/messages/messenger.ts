import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/schema.ts';
import { type MessageChannel, type MessageStatus, recordMessage } from './messages.repository.ts';

/** An SMS gateway. None ships configured; without one, texts go to the outbox like unsent email. */
export interface SmsProvider {
  readonly name: string;
  send(phone: string, text: string): Promise<void>;
}

export interface MessengerOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  smtpUrl?: string | undefined;
  smtpFrom: string;
  sms?: SmsProvider | undefined;
}

export interface Message {
  channel: MessageChannel;
  target: string;
  subject: string;
  body: string;
}

/**
 * Delivers email over SMTP and texts through the SMS provider. Every message is recorded in the
 * send log; when no transport is configured it stays there as the outbox and is printed to the log,
 * so a self-hoster without SMTP can still read registration codes.
 */
export function createMessenger(options: MessengerOptions) {
  const mailer = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;

  async function deliver(message: Message): Promise<{ status: MessageStatus; error: string }> {
    if (message.channel === 'email' && mailer) {
      await mailer.sendMail({
        from: options.smtpFrom,
        to: message.target,
        subject: message.subject,
        text: message.body,
      });
      return { status: 'sent', error: '' };
    }
    if (message.channel === 'sms' && options.sms) {
      await options.sms.send(message.target, message.body);
      return { status: 'sent', error: '' };
    }
    options.log.info(
      { channel: message.channel, target: message.target, body: message.body },
      'message kept in outbox',
    );
    return { status: 'outbox', error: '' };
  }

  return {
    async send(message: Message): Promise<MessageStatus> {
      let outcome: { status: MessageStatus; error: string };
      try {
        outcome = await deliver(message);
      } catch (error) {
        options.log.warn({ err: error, channel: message.channel }, 'message delivery failed');
        outcome = { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'unknown error' };
      }
      await recordMessage(options.db, { ...message, ...outcome }, Date.now());
      return outcome.status;
    },
    close() {
      mailer?.close();
    },
  };
}

export type Messenger = ReturnType<typeof createMessenger>;
