import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Owner } from '../tenancy.ts';

/**
 * The streams a monitor query reads: every stream (an admin who names none) or these ids. The stream
 * log may live in another database than the streams, so the caller's streams are resolved here
 * first and every log query is scoped by the ids.
 */
export type StreamScope = { kind: 'all' } | { kind: 'streams'; ids: readonly number[] };

export interface StreamScopeRequest {
  streamId?: number | undefined;
  groupId?: number | undefined;
}

export async function streamScope(
  db: Kysely<Database>,
  owner: Owner,
  { streamId, groupId }: StreamScopeRequest,
): Promise<StreamScope> {
  const own = owner.kind === 'user';
  if (streamId !== undefined) {
    const stream = await db
      .selectFrom('streams')
      .select('id')
      .where('id', '=', streamId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .$if(groupId !== undefined, (qb) => qb.where('group_id', '=', groupId ?? 0))
      .executeTakeFirst();
    if (!stream) throw new AppError('not_found', `stream_id: stream ${streamId} does not exist`);
    return { kind: 'streams', ids: [stream.id] };
  }
  if (groupId !== undefined) {
    const group = await db
      .selectFrom('stream_groups')
      .select('id')
      .where('id', '=', groupId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .executeTakeFirst();
    if (!group) throw new AppError('not_found', `group_id: stream group ${groupId} does not exist`);
    const members = await db
      .selectFrom('streams')
      .select('id')
      .where('group_id', '=', groupId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .execute();
    return { kind: 'streams', ids: members.map((row) => row.id) };
  }
  if (!own) return { kind: 'all' };
  const streams = await db.selectFrom('streams').select('id').where('user_id', '=', owner.userId).execute();
  return { kind: 'streams', ids: streams.map((row) => row.id) };
}

/** `port/protocol` of each stream named (a deleted stream is missing). */
export async function streamPorts(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('streams')
    .select(['id', 'listen_port', 'protocol'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, `${row.listen_port}/${row.protocol}`]));
}
