import { BlockLogEntry, BlockLogQuery, Envelope, ListResult, PERMISSIONS } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import { invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { listBlocked } from './block-log.repository.ts';

const tags = ['protection'];

/** ISO 8601 or Unix seconds, as milliseconds. */
function timeMs(field: string, text: string | undefined) {
  if (text === undefined) return undefined;
  const ms = /^[0-9]+$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (Number.isNaN(ms)) throw invalidParam(field, `${text} is not a time`);
  return ms;
}

/** GET /v1/monitor/site/block-log: requests protection acted on, on the caller's sites. */
export async function blockLogRoutes(app: App, { db, events }: AppContext) {
  app.get(
    '/v1/monitor/site/block-log',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: { tags, querystring: BlockLogQuery, response: { 200: Envelope(ListResult(BlockLogEntry)) } },
    },
    async (request) => {
      const owner = ownerOf(request);
      const { page = 1, limit = 20, site_id, ip, kind, group, from, to } = request.query;
      const filter = { siteId: site_id, ip, kind, group, fromMs: timeMs('from', from), toMs: timeMs('to', to) };
      let siteIds: number[] | null = null;
      // Logs may live in another database: the caller's sites are looked up first.
      if (owner.kind === 'user') {
        const rows = await db
          .selectFrom('sites')
          .select('id')
          .where('user_id', '=', owner.userId)
          .$if(site_id !== undefined, (qb) => qb.where('id', '=', site_id ?? 0))
          .execute();
        if (site_id !== undefined && rows.length === 0) throw invalidParam('site_id', `site ${site_id} does not exist`);
        siteIds = rows.map((row) => row.id);
      }
      return ok(await listBlocked(events.db, siteIds, filter, page, limit));
    },
  );
}
