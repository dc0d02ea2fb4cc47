import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';

const Line = (max: number) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern:
      '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f<>]*\\S[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f<>]*$',
    description: `1 to ${max} characters, not only spaces, no control characters but line breaks, no < >`,
  });

/** An announcement: shown on the login page between starts_at and ends_at, and sent as a message to every user. */
export const AnnouncementBody = Type.Object(
  {
    title_zh: Line(200),
    text_zh: Line(5000),
    title_en: Line(200),
    text_en: Line(5000),
    starts_at: Type.String({ format: 'date-time', description: 'shown from, ISO 8601' }),
    ends_at: Type.String({ format: 'date-time', description: 'shown until, ISO 8601, after starts_at' }),
  },
  { additionalProperties: false },
);
export type AnnouncementBody = Static<typeof AnnouncementBody>;

export const Announcement = Type.Object({
  id: Type.Integer(),
  ...AnnouncementBody.properties,
  active: Type.Boolean({ description: 'shown on the login page now' }),
  recipients: Type.Integer({ description: 'users it was sent to as a message' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type Announcement = Static<typeof Announcement>;

export const AnnouncementQuery = Type.Object({
  ...ListQuery.properties,
  active: Type.Optional(Type.Boolean({ description: 'true: only those shown now' })),
});
export type AnnouncementQuery = Static<typeof AnnouncementQuery>;

/** GET /v1/common/announcements (public): what the login page shows. */
export const ActiveAnnouncement = Type.Object({
  id: Type.Integer(),
  title_zh: Type.String(),
  text_zh: Type.String(),
  title_en: Type.String(),
  text_en: Type.String(),
  starts_at: Type.String({ format: 'date-time' }),
  ends_at: Type.String({ format: 'date-time' }),
});
export type ActiveAnnouncement = Static<typeof ActiveAnnouncement>;
