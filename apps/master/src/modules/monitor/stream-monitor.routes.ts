import { Readable } from 'node:stream';
import {
  Envelope,
  MONITOR_LIMITS,
  PERMISSIONS,
  StreamLogPage,
  StreamLogQuery,
  StreamRealtime,
  StreamRealtimeQuery,
  StreamTop,
  StreamTopQuery,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import { type MonitorStores, parseCursor } from './monitor.service.ts';
import { streamCsvChunks } from './stream-log-csv.ts';
import {
  exportStreamLog,
  streamLogPage,
  streamLogRequest,
  streamRealtime,
  streamTop,
} from './stream-traffic.service.ts';

const tags = ['monitor'];

/** GET /v1/monitor/stream/{realtime,top,access-log}: the traffic of the caller's streams (with admin:user: every stream). */
export function streamMonitorRoutes(app: App, stores: MonitorStores) {
  app.get(
    '/v1/monitor/stream/realtime',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description:
          'Connections and bytes of one stream (stream_id), a stream group (group_id) or every stream of the caller, per minute for ranges up to 1000 minutes, per hour up to 1000 hours, else per UTC day; at most 366 days.',
        querystring: StreamRealtimeQuery,
        response: { 200: Envelope(StreamRealtime) },
      },
    },
    async (request) => ok(await streamRealtime(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/stream/top',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description: `The client addresses (by=ip) or listen ports (by=port) with the most connections in the range (at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days).`,
        querystring: StreamTopQuery,
        response: { 200: Envelope(StreamTop) },
      },
    },
    async (request) => ok(await streamTop(stores, ownerOf(request), request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/stream/access-log',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags,
        description: `Stream log lines (one per ended connection or UDP session), newest first. Pages by cursor: pass next_cursor as cursor for the next page. format=csv answers every matching line instead (text/csv, streamed, at most ${MONITOR_LIMITS.csvMaxRows} lines, the first line naming the columns); range at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days.`,
        querystring: StreamLogQuery,
        response: {
          200: {
            content: {
              'application/json': { schema: Envelope(StreamLogPage) },
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
      const checked = await streamLogRequest(stores, ownerOf(request), query, Date.now());
      if (query.format !== 'csv') return ok(await streamLogPage(stores, checked, cursor, query.limit ?? 50));
      const stream = Readable.from(streamCsvChunks(exportStreamLog(stores, checked)));
      stream.on('error', (error) => request.log.error({ err: error }, 'stream log export failed'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="stream-log.csv"')
        .send(stream);
    },
  );
}
