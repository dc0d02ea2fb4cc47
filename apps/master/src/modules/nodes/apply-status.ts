import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Which enabled nodes serve a site or stream as last saved, and any error a node reported for it. */
export async function applyStatus(db: Kysely<Database>, kind: 'site' | 'stream', id: number, savedVersion: number) {
  const nodes = await db
    .selectFrom('nodes')
    .select(['id', 'name', 'applied_version'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  const errors = await db
    .selectFrom('node_apply_errors')
    .select(['node_id', 'error'])
    .where('kind', '=', kind)
    .where('object_id', '=', id)
    .execute();
  return {
    version: savedVersion,
    nodes: nodes.map((node) => {
      const error = errors.find((entry) => entry.node_id === node.id)?.error ?? '';
      return { node_id: node.id, name: node.name, applied: node.applied_version >= savedVersion && !error, error };
    }),
  };
}
