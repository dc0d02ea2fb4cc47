import { AGENT_CONTROL_PORT, type Stream, type StreamSettings } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, StreamsTable } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';

export type StreamRow = Selectable<StreamsTable>;

export const presentStream = (row: StreamRow): Stream => ({
  ...(JSON.parse(row.settings) as StreamSettings),
  id: row.id,
  user_id: row.user_id,
  group_id: row.group_id,
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

export interface StreamFilter {
  port?: number | undefined;
  protocol?: 'tcp' | 'udp' | undefined;
  groupId?: number | undefined;
  enabled?: boolean | undefined;
}

export async function listStreams(
  db: Kysely<Database>,
  owner: Owner,
  filter: StreamFilter,
  page: number,
  limit: number,
) {
  const scoped = db
    .selectFrom('streams')
    .$if(owner.kind === 'user', (qb) => qb.where('streams.user_id', '=', owner.userId))
    .$if(filter.port !== undefined, (qb) => qb.where('streams.listen_port', '=', filter.port ?? 0))
    .$if(filter.protocol !== undefined, (qb) => qb.where('streams.protocol', '=', filter.protocol ?? 'tcp'))
    .$if(filter.groupId !== undefined, (qb) => qb.where('streams.group_id', '=', filter.groupId ?? 0))
    .$if(filter.enabled !== undefined, (qb) => qb.where('streams.enabled', '=', filter.enabled ? 1 : 0));
  const [rows, count] = await Promise.all([
    scoped
      .leftJoin('users', 'users.id', 'streams.user_id')
      .selectAll('streams')
      .select('users.username as user_account')
      .orderBy('streams.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({ ...presentStream(row), user_account: row.user_account })),
    total: Number(count.n),
  };
}

export const findStreams = (db: Kysely<Database>, owner: Owner, ids: readonly number[]) =>
  db
    .selectFrom('streams')
    .selectAll()
    .where('id', 'in', ids)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .execute();

export interface StreamRecord {
  userId: number;
  groupId: number | null;
  name: string;
  settings: StreamSettings;
}

const columns = (record: StreamRecord, version: number, now: number) => ({
  user_id: record.userId,
  group_id: record.groupId,
  name: record.name,
  listen_port: record.settings.listen_port,
  protocol: record.settings.protocol,
  settings: JSON.stringify(record.settings),
  enabled: record.settings.enabled ? 1 : 0,
  version,
  updated_at: now,
});

export const insertStream = (db: Kysely<Database>, record: StreamRecord, version: number, now: number) =>
  db
    .insertInto('streams')
    .values({ ...columns(record, version, now), created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateStream = (db: Kysely<Database>, id: number, record: StreamRecord, version: number, now: number) =>
  db
    .updateTable('streams')
    .set(columns(record, version, now))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export async function deleteStreams(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length > 0) await db.deleteFrom('streams').where('id', 'in', ids).execute();
}

/** Who already listens on a port: another stream (any user's) or a node's HTTP/HTTPS port for TCP. */
export async function portUser(db: Kysely<Database>, protocol: string, port: number, exceptStreamId: number | null) {
  const stream = await db
    .selectFrom('streams')
    .select('id')
    .where('protocol', '=', protocol)
    .where('listen_port', '=', port)
    .$if(exceptStreamId !== null, (qb) => qb.where('id', '!=', exceptStreamId ?? 0))
    .executeTakeFirst();
  if (stream) return 'another forwarding rule';
  if (protocol !== 'tcp') return null;
  if (port === AGENT_CONTROL_PORT) return 'the edge agent (its control port)';
  const node = await db
    .selectFrom('nodes')
    .select('name')
    .where((eb) => eb.or([eb('http_port', '=', port), eb('https_port', '=', port)]))
    .executeTakeFirst();
  return node ? `the web server of node ${node.name}` : null;
}

/**
 * Enabled streams of enabled users whose user package (if any) is active and within its monthly
 * traffic: the streams served in full. (Snapshots use snapshotStreams, which also carries the others.)
 */
export const liveStreams = (db: Kysely<Database>) =>
  db
    .selectFrom('streams')
    .innerJoin('users', 'users.id', 'streams.user_id')
    .leftJoin('user_packages', 'user_packages.id', 'streams.user_package_id')
    .select(['streams.id', 'streams.settings'])
    .where('streams.enabled', '=', 1)
    .where('users.status', '=', 'enabled')
    .where((eb) =>
      eb.or([
        eb('streams.user_package_id', 'is', null),
        eb.and([eb('user_packages.state', '=', 'active'), eb('user_packages.traffic_exceeded', '=', 0)]),
      ]),
    )
    .orderBy('streams.id')
    .execute();

/** Enabled streams of enabled users, for snapshots, with the state of the user package each counts against. */
export const snapshotStreams = (db: Kysely<Database>) =>
  db
    .selectFrom('streams')
    .innerJoin('users', 'users.id', 'streams.user_id')
    .leftJoin('user_packages', 'user_packages.id', 'streams.user_package_id')
    .select([
      'streams.id',
      'streams.settings',
      'user_packages.id as user_package_id',
      'user_packages.state as package_state',
      'user_packages.traffic_exceeded',
    ])
    .where('streams.enabled', '=', 1)
    .where('users.status', '=', 'enabled')
    .orderBy('streams.id')
    .execute();
