import type { ActiveAnnouncement, Announcement, AnnouncementBody, AnnouncementQuery } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { Notifier } from '../messages/notifier.ts';
import {
  type AnnouncementFields,
  type AnnouncementRow,
  activeAnnouncementRows,
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
  listAnnouncementRows,
  updateAnnouncementRow,
} from './announcements.repository.ts';

const iso = (ms: number) => new Date(Number(ms)).toISOString();

export const presentAnnouncement = (row: AnnouncementRow, now = Date.now()): Announcement => ({
  id: Number(row.id),
  title_zh: row.title_zh,
  text_zh: row.text_zh,
  title_en: row.title_en,
  text_en: row.text_en,
  starts_at: iso(row.starts_at),
  ends_at: iso(row.ends_at),
  active: Number(row.starts_at) <= now && now < Number(row.ends_at),
  recipients: Number(row.recipients),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

function fieldsOf(body: AnnouncementBody): AnnouncementFields {
  const startsAt = Date.parse(body.starts_at);
  const endsAt = Date.parse(body.ends_at);
  if (endsAt <= startsAt) throw invalidParam('body/ends_at', 'must be after starts_at');
  return {
    title_zh: body.title_zh.trim(),
    text_zh: body.text_zh.trim(),
    title_en: body.title_en.trim(),
    text_en: body.text_en.trim(),
    starts_at: startsAt,
    ends_at: endsAt,
  };
}

export async function listAnnouncements(db: Kysely<Database>, query: AnnouncementQuery, now = Date.now()) {
  const limit = query.limit ?? 20;
  const offset = ((query.page ?? 1) - 1) * limit;
  const { list, total } = await listAnnouncementRows(
    db,
    { activeAt: query.active ? now : undefined },
    { offset, limit },
  );
  return { list: list.map((row) => presentAnnouncement(row, now)), total };
}

/** GET /v1/common/announcements: public, for the login page. */
export async function activeAnnouncements(db: Kysely<Database>, now = Date.now()): Promise<ActiveAnnouncement[]> {
  const rows = await activeAnnouncementRows(db, now, 5);
  return rows.map((row) => ({
    id: Number(row.id),
    title_zh: row.title_zh,
    text_zh: row.text_zh,
    title_en: row.title_en,
    text_en: row.text_en,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
  }));
}

async function found(db: Kysely<Database>, id: number) {
  const row = await findAnnouncement(db, id);
  if (!row) throw new AppError('not_found', `id: no announcement ${id}`);
  return row;
}

export const readAnnouncement = async (db: Kysely<Database>, id: number) => presentAnnouncement(await found(db, id));

/** POST /v1/announcements: saved, then sent to every enabled user as an 'announcement' message (both languages). */
export async function createAnnouncement(
  db: Kysely<Database>,
  notifier: Notifier,
  authorId: number,
  body: AnnouncementBody,
  now = Date.now(),
) {
  const fields = fieldsOf(body);
  const id = await insertAnnouncement(db, fields, authorId, now);
  const recipients = await notifier.broadcast(
    {},
    'announcement',
    { title: `${fields.title_zh} / ${fields.title_en}`, body: `${fields.text_zh}\n\n${fields.text_en}` },
    now,
  );
  await updateAnnouncementRow(db, id, { recipients }, now);
  return presentAnnouncement(await found(db, id), now);
}

/** PUT /v1/announcements/{id}: the text and the dates; the messages already sent stay as they were. */
export async function updateAnnouncement(db: Kysely<Database>, id: number, body: AnnouncementBody, now = Date.now()) {
  await found(db, id);
  await updateAnnouncementRow(db, id, fieldsOf(body), now);
  return presentAnnouncement(await found(db, id), now);
}

export async function deleteAnnouncement(db: Kysely<Database>, id: number) {
  if (!(await deleteAnnouncementRow(db, id))) throw new AppError('not_found', `id: no announcement ${id}`);
  return null;
}
