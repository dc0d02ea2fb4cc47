import type { DnsApi } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DnsApisTable } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';

export type DnsApiRow = Selectable<DnsApisTable>;

export const presentDnsApi = (row: DnsApiRow): DnsApi => ({
  id: row.id,
  user_id: row.user_id,
  name: row.name,
  provider: row.provider,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

export const findDnsApi = (db: Kysely<Database>, owner: Owner, id: number) =>
  db
    .selectFrom('dnsapis')
    .selectAll()
    .where('id', '=', id)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .executeTakeFirst();

export const listDnsApis = (db: Kysely<Database>, owner: Owner) =>
  db
    .selectFrom('dnsapis')
    .selectAll()
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .orderBy('id')
    .execute();

/** ACME certificates that make their DNS-01 records through the DNS API. */
export const countCertsUsingDnsApi = async (db: Kysely<Database>, id: number) =>
  Number(
    (
      await db
        .selectFrom('certs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('dnsapi_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
