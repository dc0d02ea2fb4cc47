import { NODE_TOKEN_HEADER } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { findNodeByCredential, type NodeRow } from '../nodes/nodes.repository.ts';

/** The node calling, by its Node-Token credential; a deleted node's credential stops working. Marks it seen. */
export async function callingNode(db: Kysely<Database>, request: FastifyRequest): Promise<NodeRow> {
  const credential = request.headers[NODE_TOKEN_HEADER];
  if (typeof credential !== 'string' || credential.length < 16 || credential.length > 256) {
    throw new AppError('login_required', 'node credential missing');
  }
  const node = await findNodeByCredential(db, hashToken(credential));
  if (!node) throw new AppError('login_required', 'node credential not recognised');
  const now = Date.now();
  await db.updateTable('nodes').set({ last_seen_at: now }).where('id', '=', node.id).execute();
  return { ...node, last_seen_at: now };
}
