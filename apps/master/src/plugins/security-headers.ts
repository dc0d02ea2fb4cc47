import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** The dashboard runs with no inline scripts; antd injects styles at run time, hence style-src 'unsafe-inline'. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const DOCUMENT_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

/** JSON calls are never rendered as documents: the short policy for APIs is enough (and keeps every answer small). */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

const isApi = (url: string) => url.startsWith('/v1/') || url.startsWith('/agent/') || url.startsWith('/api/');

/**
 * Security headers and the request id, set on the reply as a request comes in: every answer carries
 * them, refusals and errors included. No hook of their own: route-policy.ts's first hook of every
 * route sets them (a hook a call is a turn of Fastify's hook runner, about 2 µs of a signed-in call),
 * and the not-found handlers set them themselves.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(isApi(request.url) ? API_HEADERS : DOCUMENT_HEADERS);
  reply.header('x-request-id', request.id);
}

/** The first onRequest hook of a route whose policy needs no caller (public, agent). */
export function securityHeadersHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  setSecurityHeaders(request, reply);
  done();
}
