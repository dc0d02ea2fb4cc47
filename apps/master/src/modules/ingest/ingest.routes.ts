import { Envelope, LogBatchAck, LogBatchBody, NodeMetricsBody } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { callingNode } from '../agent/agent-auth.ts';
import { clockOffsetSeconds, noteClockOffset } from '../nodes/clock-offset.ts';
import { recordEdgeBans } from '../protection/edge-bans.ts';
import { chunkedJsonParser } from './chunked-json-parser.ts';
import { ingestLogBatch, ingestMetrics } from './ingest.repository.ts';
import { parseLogBatchJson } from './log-batch-json.ts';
import { nonFiniteLogNumber } from './log-numbers.ts';

const tags = ['agent'];
/** The largest log batch body taken: 10k lines a kind leave room to spare. */
const LOG_BATCH_BYTES = 32 * 1024 * 1024;

/** Log batches and metrics from agents. Bodies can be large: up to 10k lines a batch. */
export async function ingestRoutes(app: App, { db, logs, events, dialect, notifier }: AppContext) {
  await app.register(async (scope: App) => {
    // Log batches are the largest bodies agents send: parsed a few hundred lines at a time from a kept buffer.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', chunkedJsonParser(scope, LOG_BATCH_BYTES, parseLogBatchJson));
    scope.post(
      '/agent/v1/logs',
      {
        // The batch's numbers are checked where the schema puts them, not by walking every value.
        config: { policy: policy.agent, nonFiniteBody: nonFiniteLogNumber },
        bodyLimit: LOG_BATCH_BYTES,
        schema: { tags, body: LogBatchBody, response: { 200: Envelope(LogBatchAck) } },
      },
      async (request) => {
        const node = await callingNode(db, request);
        // Before the lines: a batch sent again is recognised there, and its bans are stored once anyway.
        await recordEdgeBans(db, node.id, request.body.access);
        const stored = await ingestLogBatch(logs, dialect, node.id, request.body, events);
        return ok({ seq: request.body.seq, duplicate: !stored });
      },
    );
  });

  app.post(
    '/agent/v1/metrics',
    { config: { policy: policy.agent }, bodyLimit: 32 * 1024 * 1024, schema: { tags, body: NodeMetricsBody } },
    async (request) => {
      // The report's time against the master's clock when it came: liveness and offsets use the master's.
      const receivedAt = Date.now();
      const node = await callingNode(db, request);
      await ingestMetrics(logs, dialect, node.id, request.body);
      await noteClockOffset(
        { db, notifier, log: request.log },
        node,
        clockOffsetSeconds(request.body.time, receivedAt),
        receivedAt,
      );
      return ok(null);
    },
  );
}
