import type { Kysely, Selectable } from 'kysely';
import type { AnnouncementsTable, Database } from '../../db/schema.ts';

export type AnnouncementRow = Selectable<AnnouncementsTable>;

export interface AnnouncementFields {
  title_zh: string;
  text_zh: string;
  title_en: string;
  text_en: string;
  starts_at: number;
  ends_at: number;
}

export async function listAnnouncementRows(
  db: Kysely<Database>,
  filter: { activeAt?: number | undefined },
  page: { offset: number; limit: number },
) {
  let query = db.selectFrom('announcements').selectAll();
  let count = db.selectFrom('announcements').select((eb) => eb.fn.countAll().as('n'));
  if (filter.activeAt !== undefined) {
    query = query.where('starts_at', '<=', filter.activeAt).where('ends_at', '>', filter.activeAt);
    count = count.where('starts_at', '<=', filter.activeAt).where('ends_at', '>', filter.activeAt);
  }
  const [list, total] = await Promise.all([
    query.orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/** What the login page shows now, newest first (a handful at most). */
export const activeAnnouncementRows = (db: Kysely<Database>, now: number, limit: number) =>
  db
    .selectFrom('announcements')
    .selectAll()
    .where('ends_at', '>', now)
    .where('starts_at', '<=', now)
    .orderBy('starts_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export const findAnnouncement = (db: Kysely<Database>, id: number) =>
  db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertAnnouncement(
  db: Kysely<Database>,
  fields: AnnouncementFields,
  authorId: number,
  now: number,
) {
  const { id } = await db
    .insertInto('announcements')
    .values({ ...fields, recipients: 0, author_id: authorId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

export async function updateAnnouncementRow(
  db: Kysely<Database>,
  id: number,
  fields: Partial<AnnouncementFields> & { recipients?: number },
  now: number,
) {
  const result = await db
    .updateTable('announcements')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteAnnouncementRow(db: Kysely<Database>, id: number) {
  const result = await db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
