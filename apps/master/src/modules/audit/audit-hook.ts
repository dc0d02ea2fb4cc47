import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { addRouteHook, methodsOf } from '../../plugins/route-hooks.ts';
import { actionName, maskSecrets, targetIds } from './audit-entry.ts';
import { insertOpLog } from './op-logs.repository.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Answers larger than this are not parsed for the id of what a create made.
const MAX_ANSWER_TO_READ = 64 * 1024;

/** The id in `{code: 0, data: {id}}`, the answer of a create. */
function answeredId(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > MAX_ANSWER_TO_READ) return undefined;
  try {
    const body = JSON.parse(payload) as { data?: { id?: unknown } | null };
    return body.data?.id;
  } catch {
    return undefined;
  }
}

/**
 * Every successful write under /v1 by a signed-in user or API key is recorded here, before the answer
 * goes out, so the entry exists once the caller has it. Agent calls (/agent/v1) and reads are not.
 */
async function auditPlugin(app: FastifyInstance, options: { db: Kysely<Database> }) {
  // Only write routes under /v1 carry the hook: reads pay nothing for it.
  const isLoggedRoute = (route: RouteOptions) =>
    route.url.startsWith('/v1/') && methodsOf(route).some((method) => WRITES.has(method));
  addRouteHook(app, 'onSend', isLoggedRoute, async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url;
    const auth = request.auth;
    if (!auth || !WRITES.has(request.method) || !route?.startsWith('/v1/') || reply.statusCode >= 400) return payload;
    try {
      await insertOpLog(
        options.db,
        {
          userId: auth.user.id,
          impersonatorId: auth.impersonatorId ?? null,
          authMethod: auth.apiKey ? 'key' : 'session',
          apiKeyId: auth.apiKey?.keyId ?? null,
          method: request.method,
          route,
          action: actionName(request.method, route),
          targetIds: targetIds(
            request.params,
            request.body,
            request.method === 'POST' ? answeredId(payload) : undefined,
          ),
          changes: maskSecrets(request.body ?? null, request.routeOptions.schema?.body),
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          result: 'ok',
        },
        Date.now(),
      );
    } catch (error) {
      // The write has committed: answer it, and leave the missing entry to the error log.
      request.log.error({ err: error, route }, 'could not record the operation log entry');
    }
    return payload;
  });
}

export const audit = fp(auditPlugin, { name: 'audit', dependencies: ['auth'] });
