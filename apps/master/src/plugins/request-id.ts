import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
// This master's ids share a random prefix and count up: unique across masters and restarts, at a
// fraction of randomUUID's cost, which every call paid.
const PREFIX = randomBytes(6).toString('base64url');
let counted = 0;

/** Fastify's `genReqId`: the client's `X-Request-Id` when it is a plain token of at most 64 characters, else a new id. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && REQUEST_ID.test(incoming)) return incoming;
  counted += 1;
  return `${PREFIX}-${counted.toString(36)}`;
}
