import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordMessage } from './messages.repository.ts';
import {
  claimDelivery,
  dueDeliveries,
  finishDelivery,
  insertDelivery,
  type WebhookDeliveryRow,
} from './webhook-queue.repository.ts';
import { publicOnlyLookup } from './webhook-target.ts';

export interface WebhookOptions {
  /** PEM of an extra CA to trust beside the public roots (tests: a local self-signed server). */
  ca?: string | undefined;
  /** Tests only: allow loopback and private targets. */
  allowPrivateTargets?: boolean | undefined;
}

/** Waits after the 1st, 2nd and 3rd failed attempt; after the 4th the delivery is given up. */
export const WEBHOOK_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** An attempt ends within this long, answer or not: well inside its claim. */
const TIMEOUT_MS = 10_000;
/**
 * A claimed row is left alone this long by other workers (and masters) while it is being sent; a
 * master that died with it claimed leaves it due again after this, and another master retries it.
 */
const CLAIM_MS = 60_000;
const POLL_MS = 15_000;

export const SIGNATURE_HEADER = 'x-rampart-signature';
export const TIMESTAMP_HEADER = 'x-rampart-timestamp';

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

export const signWebhook = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

interface Attempt {
  ok: boolean;
  error: string;
}

/** One POST of the signed body; 2xx is a delivery, anything else (or no answer) a failure. */
function post(url: string, body: string, secret: string, options: WebhookOptions, now: number): Promise<Attempt> {
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'user-agent': 'Rampart-Webhook/1',
    [TIMESTAMP_HEADER]: String(Math.floor(now / 1000)),
    [SIGNATURE_HEADER]: signWebhook(secret, body),
  };
  return new Promise((resolve) => {
    // `timeout` below is for an idle socket; this ends a slow trickle too, so the claim never runs out first.
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    const settle = (attempt: Attempt) => {
      clearTimeout(deadline);
      resolve(attempt);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers,
        timeout: TIMEOUT_MS,
        lookup: publicOnlyLookup(Boolean(options.allowPrivateTargets)) as never,
        ...(options.ca && { ca: [...rootCertificates, options.ca] }),
      },
      (res) => {
        res.on('error', (error) => settle({ ok: false, error: error.message.slice(0, 500) }));
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          settle(status >= 200 && status < 300 ? { ok: true, error: '' } : { ok: false, error: `HTTP ${status}` });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => settle({ ok: false, error: error.message.slice(0, 500) }));
    req.end(body);
  });
}

export interface WebhookMessage {
  userId: number;
  url: string;
  secret: string;
  type: string;
  title: string;
  body: string;
  messageId: number | null;
}

export function createWebhookSender(db: Kysely<Database>, log: FastifyBaseLogger, options: WebhookOptions) {
  /** One attempt on a row claimed until `heldUntil`. */
  async function attempt(row: WebhookDeliveryRow, heldUntil: number, secret: string, now: number): Promise<Attempt> {
    const attempts = row.attempts + 1;
    const result = await post(row.url, row.payload, secret, options, now);
    const retryIn = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
    const state = result.ok ? 'sent' : retryIn === undefined ? 'failed' : 'pending';
    await finishDelivery(
      db,
      { id: Number(row.id), heldUntil },
      { attempts, state, error: result.error, nextAt: now + (retryIn ?? 0) },
      now,
    );
    await recordMessage(
      db,
      {
        channel: 'webhook',
        target: row.url,
        subject: `${row.subject} (attempt ${attempts} of ${WEBHOOK_MAX_ATTEMPTS})`,
        body: row.payload,
        status: result.ok ? 'sent' : 'failed',
        error: result.error,
      },
      now,
    );
    if (!result.ok) log.warn({ delivery: row.id, attempts, error: result.error }, 'webhook delivery failed');
    return result;
  }

  return {
    /** Queues the message (the queue survives a restart) and makes the first attempt now. */
    async send(message: WebhookMessage, now = Date.now()) {
      const payload = JSON.stringify({
        type: message.type,
        title: message.title,
        body: message.body,
        user_id: message.userId,
        message_id: message.messageId,
        timestamp: Math.floor(now / 1000),
      });
      const heldUntil = now + CLAIM_MS;
      const row = await insertDelivery(
        db,
        { userId: message.userId, url: message.url, subject: message.title, payload },
        heldUntil,
        now,
      );
      return attempt(row, heldUntil, message.secret, now);
    },
    /**
     * Retries every delivery whose time has come; answers how many were attempted. Every master runs
     * it: each due row is claimed in one statement first, so only one master attempts it.
     */
    async runDue(secretOf: (userId: number) => Promise<string | undefined>, now = Date.now()) {
      let attempted = 0;
      for (const row of await dueDeliveries(db, now, 50)) {
        const heldUntil = now + CLAIM_MS;
        if (!(await claimDelivery(db, row, heldUntil))) continue;
        const secret = await secretOf(Number(row.user_id));
        attempted++;
        if (!secret) {
          await finishDelivery(
            db,
            { id: Number(row.id), heldUntil },
            { attempts: row.attempts, state: 'failed', error: 'the webhook secret was removed', nextAt: now },
            now,
          );
          continue;
        }
        await attempt(row, heldUntil, secret, now);
      }
      return attempted;
    },
    POLL_MS,
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
