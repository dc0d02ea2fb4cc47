import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { OFFLINE_AFTER_MS } from './nodes.repository.ts';

export type NodesAtVersion =
  | { ok: true; nodes: number }
  | { ok: false; reason: 'no-nodes' }
  | { ok: false; reason: 'timeout'; behind: string[] };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Waits until every enabled node that is online has applied config `version` (offline nodes are not
 * waited for: they fetch the newest config when they come back).
 */
export async function waitForNodesAt(
  db: Kysely<Database>,
  version: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<NodesAtVersion> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = Date.now();
    const online = await db
      .selectFrom('nodes')
      .select(['name', 'applied_version'])
      .where('enabled', '=', 1)
      .where('last_seen_at', '>=', now - OFFLINE_AFTER_MS)
      .orderBy('id')
      .execute();
    if (online.length === 0) return { ok: false, reason: 'no-nodes' };
    const behind = online.filter((node) => node.applied_version < version).map((node) => node.name);
    if (behind.length === 0) return { ok: true, nodes: online.length };
    if (now >= deadline || signal?.aborted) return { ok: false, reason: 'timeout', behind };
    await sleep(200, signal);
  }
}
