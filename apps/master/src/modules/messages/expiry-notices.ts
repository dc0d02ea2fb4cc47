import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { claimNotice } from './notice-claims.ts';
import type { Notifier } from './notifier.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Days before expiry at which the owner is told, most urgent first (0: it has expired). ACME
 * certificates renew themselves 30 days before: their owners hear only once a renewal is late.
 */
const STAGES = [0, 1, 7, 30] as const;
const ACME_FIRST_STAGE = 7;
/** A certificate expired longer ago than this is no longer news. */
const EXPIRED_FOR_MS = 30 * DAY_MS;
/** Certificates told per stage and run; the next run goes on with the rest. */
const BATCH = 500;

const describe = (names: string) => {
  try {
    const list = JSON.parse(names) as unknown;
    return Array.isArray(list) && list.length > 0 ? list.slice(0, 5).join(', ') : '';
  } catch {
    return '';
  }
};

/**
 * Tells each certificate's owner (message, and email, SMS or webhook as subscribed to
 * `cert_expiry`) 30, 7 and 1 day(s) before it expires and once it has expired: the most urgent
 * stage that applies and was not told yet, once per expiry time (a renewed certificate starts
 * afresh). The stage is claimed in the database before the notice, so two masters never both send
 * it. Answers how many notices went out.
 */
export async function sendCertExpiryNotices(db: Kysely<Database>, notifier: Notifier, now = Date.now()) {
  let sent = 0;
  for (const [index, days] of STAGES.entries()) {
    const upper = now + days * DAY_MS;
    const lower = index === 0 ? now - EXPIRED_FOR_MS : now + (STAGES[index - 1] ?? 0) * DAY_MS;
    let query = db
      .selectFrom('certs')
      .select(['id', 'user_id', 'name', 'names', 'not_after'])
      .where('not_after', '>', lower)
      .where('not_after', '<=', upper)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('expiry_notices')
              .select('object_id')
              .where('kind', '=', 'cert')
              .whereRef('object_id', '=', 'certs.id')
              .whereRef('expires_at', '=', 'certs.not_after')
              .where('days', '<=', days),
          ),
        ),
      );
    if (days > ACME_FIRST_STAGE) query = query.where('source', '!=', 'acme');
    for (const cert of await query.orderBy('not_after').limit(BATCH).execute()) {
      const claim = { kind: 'cert', objectId: cert.id, period: cert.not_after, stage: days } as const;
      const claimed = await claimNotice(db, claim, now);
      if (!claimed) continue;
      const expiry = new Date(Number(cert.not_after)).toISOString();
      const names = describe(cert.names);
      const title =
        days === 0
          ? `Certificate "${cert.name}" has expired`
          : `Certificate "${cert.name}" expires in ${days === 1 ? '1 day' : `${days} days`}`;
      const body = `${names ? `The certificate for ${names}` : 'The certificate'} ${days === 0 ? 'expired' : 'expires'} at ${expiry}. Upload a renewed certificate or issue one with ACME so that HTTPS keeps working.`;
      await notifier.notify(cert.user_id, 'cert_expiry', { title, body }, now);
      sent++;
    }
  }
  return sent;
}
