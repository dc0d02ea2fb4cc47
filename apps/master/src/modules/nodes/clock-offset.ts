import { CLOCK_SKEW_SECONDS } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Notifier } from '../messages/notifier.ts';
import {
  claimClockSkewNotice,
  clearClockSkewNotice,
  type NodeRow,
  nodeAdminIds,
  saveClockOffset,
} from './nodes.repository.ts';

/**
 * How many seconds the node's clock runs ahead of the master's, from the time a report carries
 * (whole seconds, floored when it was taken) and the master's time when it arrived. The report's
 * second is taken at its middle; the transit time cannot be taken off (one report carries no round
 * trip), so a slow link makes the offset read low by its one-way delay, far below the threshold.
 */
export function clockOffsetSeconds(reportedSeconds: number, receivedAtMs: number): number {
  const offset = Math.round(reportedSeconds + 0.5 - receivedAtMs / 1000);
  // Not -0: the integer column and the node list read it as 0.
  return offset === 0 ? 0 : offset;
}

export const isClockSkewed = (offsetSeconds: number) => Math.abs(offsetSeconds) > CLOCK_SKEW_SECONDS;

const describeOffset = (offsetSeconds: number) => {
  const amount = Math.abs(offsetSeconds);
  const text = amount >= 120 ? `${Math.round(amount / 60)} minutes` : `${amount} seconds`;
  return `${text} ${offsetSeconds > 0 ? 'ahead of' : 'behind'}`;
};

export interface ClockOffsetContext {
  db: Kysely<Database>;
  notifier: Pick<Notifier, 'notify'>;
  log: FastifyBaseLogger;
}

/**
 * Keeps the node's clock offset for the node list and, the first time it passes the threshold (once
 * per episode: back under it, a later one is told again), tells the admins holding admin:node.
 */
export async function noteClockOffset(
  { db, notifier, log }: ClockOffsetContext,
  node: Pick<NodeRow, 'id' | 'name' | 'clock_offset_seconds' | 'clock_skew_noticed_at'>,
  offsetSeconds: number,
  now = Date.now(),
): Promise<void> {
  if (node.clock_offset_seconds !== offsetSeconds) await saveClockOffset(db, node.id, offsetSeconds);
  if (!isClockSkewed(offsetSeconds)) {
    if (node.clock_skew_noticed_at !== null) await clearClockSkewNotice(db, node.id);
    return;
  }
  if (node.clock_skew_noticed_at !== null || !(await claimClockSkewNotice(db, node.id, now))) return;
  const notice = {
    title: `The clock of node ${node.name} is off`,
    body:
      `Node ${node.name} reports a clock ${describeOffset(offsetSeconds)} the master's. It keeps serving ` +
      'and shipping logs, but its log lines carry its own times, and the challenge passes and bans it ' +
      'enforces run on its clock: set its time right (NTP).',
  };
  for (const userId of await nodeAdminIds(db)) {
    try {
      await notifier.notify(userId, 'node_failover', notice, now);
    } catch (error) {
      log.warn({ err: error, userId, nodeId: node.id }, 'a clock skew message was not delivered');
    }
  }
}
