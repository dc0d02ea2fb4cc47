import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../../db/schema.ts';
import { loadSettings, type SmtpServer, smtpTransportOf } from '../settings/settings.service.ts';
import { type MessageChannel, type MessageStatus, recordMessage } from './messages.repository.ts';
import { savedSmsAccount, sendCodeSms } from './sms-gateway.ts';

/** An SMS gateway handed to the master at start (tests); it takes any text and wins over the saved provider. */
export interface SmsProvider {
  readonly name: string;
  send(phone: string, text: string): Promise<void>;
}

export interface MessengerOptions {
  /** The master's own handle: sealed settings (SMTP password, SMS secret) open only through it. */
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
  /** The one-time code the body carries: an SMS provider sends it as its code template's parameter. */
  code?: string;
}

type Outcome = { status: MessageStatus; error: string };

/**
 * Delivers email through the mail server saved in /sys/setting (else RAMPART_SMTP_URL) and texts
 * through the SMS provider saved there. Every message is recorded in the send log; when no transport
 * is configured it stays there as the outbox and is printed to the log, so a self-hoster without
 * SMTP can still read registration codes.
 */
export function createMessenger(options: MessengerOptions) {
  // One transport for the mail server in use, made again when /sys/setting names another.
  let mailer: { key: string; transport: Transporter } | undefined;
  const mailerFor = (server: string | SmtpServer) => {
    const key = JSON.stringify(server);
    if (mailer?.key !== key) {
      mailer?.transport.close();
      mailer = { key, transport: nodemailer.createTransport(server) };
    }
    return mailer.transport;
  };

  const kept = (message: Message, reason: string): Outcome => {
    options.log.info(
      { channel: message.channel, target: message.target, body: message.body },
      `message kept in outbox: ${reason}`,
    );
    return { status: 'outbox', error: '' };
  };

  async function deliver(message: Message): Promise<Outcome> {
    if (message.channel === 'sms' && options.sms) {
      await options.sms.send(message.target, message.body);
      return { status: 'sent', error: '' };
    }
    const settings = await loadSettings(options.db);
    if (message.channel === 'email') {
      const { transport, from } = smtpTransportOf(settings, { url: options.smtpUrl, from: options.smtpFrom });
      if (!transport) return kept(message, 'no mail server is set up');
      await mailerFor(transport).sendMail({ from, to: message.target, subject: message.subject, text: message.body });
      return { status: 'sent', error: '' };
    }
    const account = savedSmsAccount(settings);
    if (!account) return kept(message, 'no SMS provider is set up');
    // Providers text only templates they approved: the code template takes a code, nothing else.
    if (message.code === undefined) return kept(message, 'the SMS provider sends code messages only');
    await sendCodeSms(account, message.target, message.code);
    return { status: 'sent', error: '' };
  }

  return {
    /** The transports the master was started with: RAMPART_SMTP_URL, an SMS provider. */
    transports: { email: options.smtpUrl !== undefined, sms: options.sms !== undefined },
    async send(message: Message): Promise<MessageStatus> {
      let outcome: Outcome;
      try {
        outcome = await deliver(message);
      } catch (error) {
        options.log.warn({ err: error, channel: message.channel }, 'message delivery failed');
        outcome = { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'unknown error' };
      }
      const { channel, target, subject, body } = message;
      await recordMessage(options.db, { channel, target, subject, body, ...outcome }, Date.now());
      return outcome.status;
    },
    close() {
      mailer?.transport.close();
      mailer = undefined;
    },
  };
}

export type Messenger = ReturnType<typeof createMessenger>;
