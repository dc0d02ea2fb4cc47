import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { policy } from '../../plugins/route-policy.ts';
import { createMasterMetrics } from './metrics.ts';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export const isLoopback = (address: string | undefined) =>
  address !== undefined && (/^(::ffff:)?127\./.test(address) || address === '::1');

const sameToken = (given: string, expected: string) =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

const refuse = (reply: FastifyReply, status: 401 | 403, text: string) => {
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="metrics"');
  return reply.code(status).type('text/plain; charset=utf-8').send(`${text}\n`);
};

/**
 * `GET /metrics` in Prometheus's text format, and the hooks that feed it: every answered request by
 * route pattern, log lines and metric reports from agents. Not public: with RAMPART_METRICS_TOKEN set
 * a scrape must send `Authorization: Bearer <token>` (from any address); without it only loopback
 * clients (the TCP peer, not a forwarded header) may scrape.
 * Registered on the root app before the routes, so that its hooks see every route.
 */
export async function metricsRoutes(app: App, { db, config }: AppContext) {
  const metrics = createMasterMetrics(db);

  // Callback style, not async: it runs on every answered call, and a promise a call is most of its cost.
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 200 && request.method === 'POST') {
      if (route === '/agent/v1/logs') {
        const body = request.body as { access?: unknown[]; stream?: unknown[] } | undefined;
        metrics.countLogBatch(body?.access?.length ?? 0, body?.stream?.length ?? 0);
      } else if (route === '/agent/v1/metrics') {
        metrics.countMetricsReport();
      }
    }
    done();
  });

  app.get('/metrics', { config: { policy: policy.public }, schema: { hide: true } }, async (request, reply) => {
    const token = config.metricsToken;
    if (token) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      if (!given || !sameToken(given, token)) {
        return refuse(reply, 401, 'metrics: send Authorization: Bearer with the RAMPART_METRICS_TOKEN value');
      }
    } else if (!isLoopback(request.socket.remoteAddress)) {
      return refuse(reply, 403, 'metrics: only loopback clients may scrape unless RAMPART_METRICS_TOKEN is set');
    }
    const { contentType, text } = await metrics.render();
    return reply.type(contentType).send(text);
  });
}
