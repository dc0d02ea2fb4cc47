import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { setSecurityHeaders } from './security-headers.ts';

/** Success body of every `/v1` call. */
export const ok = <T>(data: T) => ({ code: 0 as const, msg: 'ok', data });

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  parentSchema?: { description?: string };
}

/** Names the field and the rule it broke, for example `body/username: 3 to 32 letters, …`. */
export function describeValidation(error: FastifyError): string {
  const { field, rule } = validationIssue(error);
  return `${field}: ${rule}`;
}

/** The field a validation failure is about and the rule it broke (`must be …`, `is required`). */
export function validationIssue(error: FastifyError): { field: string; rule: string } {
  const issues = (error.validation ?? []) as AjvIssue[];
  const first = issues[0] ?? {};
  // A value that fits no branch of a described union (`rate, js, …`) reads better as the union's rule.
  const union = issues.find(
    (candidate) =>
      candidate.keyword === 'anyOf' &&
      candidate.instancePath === first.instancePath &&
      candidate.parentSchema?.description !== undefined,
  );
  const issue = union ?? first;
  const context = error.validationContext ?? 'body';
  const missing = issue.keyword === 'required' ? String(issue.params?.missingProperty ?? '') : '';
  const extra = issue.keyword === 'additionalProperties' ? String(issue.params?.additionalProperty ?? '') : '';
  const path = (issue.instancePath ?? '').replace(/^\//, '');
  const field = [context, path, missing || extra].filter(Boolean).join('/');
  if (missing) return { field, rule: 'is required' };
  if (extra) return { field, rule: 'is not an accepted field' };
  const rule = issue.parentSchema?.description ?? issue.message ?? 'is invalid';
  return { field, rule: `must be ${rule.replace(/^must be /, '').replace(/^must /, '')}` };
}

async function envelopePlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      const body = { code: error.code, msg: error.message, data: null };
      return reply.status(error.status).send(error.params ? { ...body, params: error.params } : body);
    }
    if (error.validation) {
      const params = validationIssue(error);
      return reply
        .status(400)
        .send({ code: 'invalid_param', msg: `${params.field}: ${params.rule}`, data: null, params });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Framework-level client errors: malformed JSON, body too large, wrong content type.
      return reply.status(status).send({ code: 'invalid_param', msg: error.message, data: null });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'internal_error', msg: 'internal server error', data: null });
  });

  // No route, so no route's hook: the handler sets the security headers itself.
  app.setNotFoundHandler((request, reply) => {
    setSecurityHeaders(request, reply);
    return reply
      .status(404)
      .send({ code: 'not_found', msg: `no route for ${request.method} ${request.url.split('?')[0]}`, data: null });
  });
}

export const envelope = fp(envelopePlugin, { name: 'envelope' });
