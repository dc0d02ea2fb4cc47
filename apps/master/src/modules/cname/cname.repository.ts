import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const COLUMNS = ['id', 'domain', 'is_default', 'note', 'dnsapi_id', 'zone'] as const;

export const listCnameDomains = (db: Kysely<Database>) =>
  db.selectFrom('cname_domains').select(COLUMNS).orderBy('id').execute();

export const findCnameDomain = (db: Kysely<Database>, id: number) =>
  db.selectFrom('cname_domains').select(COLUMNS).where('id', '=', id).executeTakeFirst();

/** The domain new CNAME targets hang under: the one marked default, else the first; '' when none is set up. */
export async function defaultCnameDomain(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('cname_domains')
    .select('domain')
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  return row?.domain ?? '';
}

/** Where a site's domains must point: s<id>.<CNAME domain>. */
export const cnameTarget = (siteId: number, cnameDomain: string) => (cnameDomain ? `s${siteId}.${cnameDomain}` : '');
