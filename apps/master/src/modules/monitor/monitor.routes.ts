import { Readable } from 'node:stream';
import {
  AccessLogPage,
  AccessLogQuery,
  Envelope,
  MONITOR_LIMITS,
  PERMISSIONS,
  SiteRealtime,
  SiteRealtimeQuery,
  SiteTop,
  SiteTopQuery,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { csvChunks } from './access-log-csv.ts';
import {
  accessLogPage,
  accessLogRequest,
  exportAccessLog,
  parseCursor,
  siteRealtime,
  siteTop,
} from './monitor.service.ts';
import { nodeMonitorRoutes } from './node-monitor.routes.ts';
import { streamMonitorRoutes } from './stream-monitor.routes.ts';

const tags = ['monitor'];

/**
 * GET /v1/monitor/site/{realtime,top,access-log}: the traffic of the caller's sites (with admin:user: every
 * site); the stream and node calls are in stream-monitor.routes.ts and node-monitor.routes.ts.
 */
export async function monitorRoutes(app: App, { db, logs, events }: AppContext) {
  const stores = { db, logs, events };
  streamMonitorRoutes(app, stores);
  nodeMonitorRoutes(app, stores);

  app.get(
    '/v1/monitor/site/realtime',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description:
          'Traffic of one site (site_id), a site group (group_id) or every site of the caller, per minute for ranges up to 1000 minutes, per hour up to 1000 hours, else per UTC day; at most 366 days.',
        querystring: SiteRealtimeQuery,
        response: { 200: Envelope(SiteRealtime) },
      },
    },
    async (request) => ok(await siteRealtime(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/site/top',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description: `The most frequent values of one field of the access log in the range (at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days).`,
        querystring: SiteTopQuery,
        response: { 200: Envelope(SiteTop) },
      },
    },
    async (request) => ok(await siteTop(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/site/access-log',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description: `Access log lines, newest first. Pages by cursor: pass next_cursor as cursor for the next page (new lines never shift pages). format=csv answers every matching line instead (text/csv, streamed, at most ${MONITOR_LIMITS.csvMaxRows} lines, the first line naming the columns); range at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days.`,
        querystring: AccessLogQuery,
        response: {
          200: {
            content: {
              'application/json': { schema: Envelope(AccessLogPage) },
              // Sent as a stream, never serialized.
              'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string', description: 'format=csv' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const cursor = parseCursor(query.cursor);
      const checked = await accessLogRequest(stores, ownerOf(request), query, Date.now());
      if (query.format !== 'csv') return ok(await accessLogPage(stores, checked, cursor, query.limit ?? 50));
      const stream = Readable.from(csvChunks(exportAccessLog(stores, checked)));
      stream.on('error', (error) => request.log.error({ err: error }, 'access log export failed'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="access-log.csv"')
        .send(stream);
    },
  );
}
