import type { Acl, AclEntry, AclListQuery } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import { newestFirstPage } from '../../db/paging.ts';
import type { AclsTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { iso } from './cc-owner.ts';

export type AclRow = Selectable<AclsTable>;

export const presentAcl = (row: AclRow): Acl => ({
  id: row.id,
  site_id: row.site_id,
  user_id: row.user_id,
  entries: JSON.parse(row.entries) as AclEntry[],
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function listAcls(db: Kysely<Database>, owner: Owner, query: AclListQuery) {
  const { page = 1, limit = 20, site_id } = query;
  const scoped = db
    .selectFrom('acls')
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .$if(site_id !== undefined, (qb) => qb.where('site_id', '=', site_id ?? 0));
  const { rows, total } = await newestFirstPage(scoped, page, limit);
  return { list: rows.map(presentAcl), total };
}

export const findAcl = (db: Kysely<Database>, owner: Owner, id: number) =>
  db
    .selectFrom('acls')
    .selectAll()
    .where('id', '=', id)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .executeTakeFirst();

export const aclOfSite = (db: Kysely<Database>, siteId: number) =>
  db.selectFrom('acls').select('id').where('site_id', '=', siteId).executeTakeFirst();

export const insertAcl = (
  db: Kysely<Database>,
  site: { id: number; user_id: number },
  entries: readonly AclEntry[],
  now: number,
) =>
  db
    .insertInto('acls')
    .values({
      site_id: site.id,
      user_id: site.user_id,
      entries: JSON.stringify(entries),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateAcl = (db: Kysely<Database>, id: number, entries: readonly AclEntry[], now: number) =>
  db
    .updateTable('acls')
    .set({ entries: JSON.stringify(entries), updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export async function deleteAcl(db: Kysely<Database>, id: number) {
  await db.deleteFrom('acls').where('id', '=', id).execute();
}
