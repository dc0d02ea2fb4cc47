import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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

/** Security headers and the request id on every response (one synchronous hook: it runs on every call). */
async function securityHeadersPlugin(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(isApi(request.url) ? API_HEADERS : DOCUMENT_HEADERS);
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}

export const securityHeaders = fp(securityHeadersPlugin, { name: 'security-headers' });
