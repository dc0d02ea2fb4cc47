import {
  ActiveAnnouncement,
  Announcement,
  AnnouncementBody,
  AnnouncementQuery,
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import {
  activeAnnouncements,
  createAnnouncement,
  deleteAnnouncement,
  listAnnouncements,
  readAnnouncement,
  updateAnnouncement,
} from './announcements.service.ts';

const tags = ['announcements'];

/** GET /v1/common/announcements: no sign-in needed, the login page shows them. */
export async function publicAnnouncementRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/common/announcements',
    {
      config: { policy: policy.public },
      schema: {
        tags,
        summary: 'The announcements shown now (between starts_at and ends_at), newest first, at most 5',
        response: { 200: Envelope(Type.Array(ActiveAnnouncement)) },
      },
    },
    async () => ok(await activeAnnouncements(db)),
  );
}

/** /sys/anno: admins (admin:sys, by the admin access table) write announcements. */
export async function announcementRoutes(app: App, { db, notifier }: AppContext) {
  app.get(
    '/v1/announcements',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): announcements, newest first; active=true for those shown now',
        querystring: AnnouncementQuery,
        response: { 200: Envelope(ListResult(Announcement)) },
      },
    },
    async (request) => ok(await listAnnouncements(db, request.query)),
  );

  app.post(
    '/v1/announcements',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): publish an announcement; every enabled user also gets it as a message',
        body: AnnouncementBody,
        response: { 200: Envelope(Announcement) },
      },
    },
    async (request) => ok(await createAnnouncement(db, notifier, caller(request).user.id, request.body)),
  );

  app.get(
    '/v1/announcements/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): one announcement',
        params: IdParams,
        response: { 200: Envelope(Announcement) },
      },
    },
    async (request) => ok(await readAnnouncement(db, request.params.id)),
  );

  app.put(
    '/v1/announcements/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): change the text or the dates (messages sent already stay)',
        params: IdParams,
        body: AnnouncementBody,
        response: { 200: Envelope(Announcement) },
      },
    },
    async (request) => ok(await updateAnnouncement(db, request.params.id, request.body)),
  );

  app.delete(
    '/v1/announcements/:id',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): delete an announcement',
        params: IdParams,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (request) => ok(await deleteAnnouncement(db, request.params.id)),
  );
}
