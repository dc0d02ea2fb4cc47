import { Envelope, Id, IdParams, ListResult, ObjectName, PERMISSIONS, SiteGroup } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { creatorOf, ownerOf } from '../tenancy.ts';

const CreateBody = Type.Object({ name: ObjectName, user_id: Type.Optional(Id) }, { additionalProperties: false });
const RenameBody = Type.Object({ name: ObjectName }, { additionalProperties: false });

interface GroupKind {
  /** URL path, e.g. /v1/site-groups */
  path: string;
  table: 'site_groups' | 'stream_groups';
  /** Rows that point at a group; they return to no group when it is deleted. */
  members: 'sites' | 'streams';
  label: string;
}

/** Per-user groups of sites or streams: list, create, read, rename, delete. */
export async function ownedGroupRoutes(app: App, { db }: AppContext, kind: GroupKind) {
  const tags = [kind.members];
  const present = (row: { id: number; user_id: number; name: string }) => ({
    id: row.id,
    user_id: row.user_id,
    name: row.name,
  });
  const notFound = (id: number) => new AppError('not_found', `${kind.label} ${id} does not exist`);

  app.get(
    kind.path,
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, response: { 200: Envelope(ListResult(SiteGroup)) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const rows = await db
        .selectFrom(kind.table)
        .selectAll()
        .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
        .orderBy('id')
        .execute();
      return ok({ list: rows.map(present), total: rows.length });
    },
  );

  app.post(
    kind.path,
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, body: CreateBody, response: { 200: Envelope(SiteGroup) } },
    },
    async (request) => {
      const userId = await creatorOf(db, ownerOf(request), request.body.user_id);
      const row = await db
        .insertInto(kind.table)
        .values({
          user_id: userId,
          name: request.body.name,
          created_at: Date.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(present(row));
    },
  );

  app.get(
    `${kind.path}/:id`,
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(SiteGroup) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const row = await db
        .selectFrom(kind.table)
        .selectAll()
        .where('id', '=', request.params.id)
        .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
        .executeTakeFirst();
      if (!row) throw notFound(request.params.id);
      return ok(present(row));
    },
  );

  app.put(
    `${kind.path}/:id`,
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, body: RenameBody, response: { 200: Envelope(SiteGroup) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const row = await db
        .updateTable(kind.table)
        .set({ name: request.body.name })
        .where('id', '=', request.params.id)
        .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound(request.params.id);
      return ok(present(row));
    },
  );

  app.delete(
    `${kind.path}/:id`,
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, params: IdParams, response: { 200: Envelope(Type.Null()) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const deleted = await db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom(kind.table)
          .where('id', '=', request.params.id)
          .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
          .returning('id')
          .executeTakeFirst();
        if (row) await trx.updateTable(kind.members).set({ group_id: null }).where('group_id', '=', row.id).execute();
        return row;
      });
      if (!deleted) throw notFound(request.params.id);
      return ok(null);
    },
  );
}
