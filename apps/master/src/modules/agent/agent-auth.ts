import { createHash, timingSafeEqual } from 'node:crypto';
import { NODE_TOKEN_HEADER } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { currentInstallToken } from '../nodes/install-token.ts';
import { findNodeByCredential, markNodeSeen, type NodeRow } from '../nodes/nodes.repository.ts';

/** The header install.sh sends the cluster install token in when it downloads the agent. */
export const INSTALL_TOKEN_HEADER = 'install-token';

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/** Whether two secrets are equal, in time that does not depend on where they differ (or on their lengths). */
export const sameSecret = (given: string, expected: string) =>
  expected !== '' && timingSafeEqual(digest(given), digest(expected));

/**
 * How stale a node's stored `last_seen_at` may get before a call of its writes it again. A node is
 * offline after 90 s without a call; an agent calls at least every 30 s (its config poll) and sends
 * metrics every 5 s, and after a change its poll and status report come within a second of each
 * other: writing the time on every call was a third of the master's writes when a fleet moved to a
 * new config.
 */
export const SEEN_WRITE_INTERVAL_MS = 10_000;

/** The node calling, by its Node-Token credential; a deleted node's credential stops working. Marks it seen. */
export async function callingNode(db: Kysely<Database>, request: FastifyRequest): Promise<NodeRow> {
  const credential = request.headers[NODE_TOKEN_HEADER];
  if (typeof credential !== 'string' || credential.length < 16 || credential.length > 256) {
    throw new AppError('login_required', 'node credential missing');
  }
  const node = await findNodeByCredential(db, hashToken(credential));
  if (!node) throw new AppError('login_required', 'node credential not recognised');
  const now = Date.now();
  const seen = node.last_seen_at === null ? null : Number(node.last_seen_at);
  if (seen === null || now - seen >= SEEN_WRITE_INTERVAL_MS) {
    await markNodeSeen(db, node.id, now);
  }
  return { ...node, last_seen_at: now };
}

/**
 * Admits a download of the agent or its runtime: a server being installed, by the cluster install
 * token in the Install-Token header, or an accepted node, by its Node-Token credential.
 */
export async function admitAgentDownload(db: Kysely<Database>, request: FastifyRequest): Promise<void> {
  const token = request.headers[INSTALL_TOKEN_HEADER];
  if (typeof token === 'string') {
    if (!sameSecret(token, await currentInstallToken(db))) {
      throw new AppError('login_required', 'Install-Token: not the cluster install token');
    }
    return;
  }
  if (request.headers[NODE_TOKEN_HEADER] === undefined) {
    throw new AppError(
      'login_required',
      'send the cluster install token (Install-Token) or a node credential (Node-Token)',
    );
  }
  await callingNode(db, request);
}
