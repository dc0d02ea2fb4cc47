import type { StreamSettings } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import { claimRoom } from '../packages/package-room.ts';
import { checkOrigins } from '../sites/site-rules.ts';
import type { Owner } from '../tenancy.ts';
import {
  deleteStreams,
  findStreams,
  insertStream,
  portUser,
  type StreamRecord,
  updateStream,
} from './streams.repository.ts';

export const DEFAULT_STREAM_SETTINGS = { balance: 'round_robin', proxy_protocol: false, enabled: true } as const;

async function checkStream(db: Kysely<Database>, record: StreamRecord, streamId: number | null) {
  checkOrigins(record.settings.origins, record.settings.balance);
  const { protocol, listen_port } = record.settings;
  const user = await portUser(db, protocol, listen_port, streamId);
  if (user) throw new AppError('conflict', `listen_port: port ${listen_port}/${protocol} is already used by ${user}`);
  if (record.groupId !== null) {
    const group = await db
      .selectFrom('stream_groups')
      .select('id')
      .where('id', '=', record.groupId)
      .where('user_id', '=', record.userId)
      .executeTakeFirst();
    if (!group) throw new AppError('not_found', `group_id: stream group ${record.groupId} does not exist`);
  }
}

const unique = (error: unknown) => /unique|duplicate key/i.test(String(error));

export async function createStream(db: Kysely<Database>, record: StreamRecord, userPackageId?: number) {
  await checkStream(db, record, null);
  try {
    return await changeConfig(db, async (trx, version) => {
      const counted = await claimRoom(trx, record.userId, userPackageId, { streams: 1 });
      const row = await insertStream(trx, record, version, Date.now());
      if (counted === null) return row;
      await trx.updateTable('streams').set({ user_package_id: counted }).where('id', '=', row.id).execute();
      return { ...row, user_package_id: counted };
    });
  } catch (error) {
    if (unique(error))
      throw new AppError('conflict', `listen_port: port ${record.settings.listen_port} was just taken`);
    throw error;
  }
}

export async function editStream(
  db: Kysely<Database>,
  owner: Owner,
  id: number,
  changes: Partial<StreamSettings> & { name?: string; group_id?: number | null },
) {
  const [row] = await findStreams(db, owner, [id]);
  if (!row) throw new AppError('not_found', `stream ${id} does not exist`);
  const { name, group_id, ...fields } = changes;
  const record: StreamRecord = {
    userId: row.user_id,
    groupId: group_id === undefined ? row.group_id : group_id,
    name: name ?? row.name,
    settings: { ...(JSON.parse(row.settings) as StreamSettings), ...fields },
  };
  await checkStream(db, record, row.id);
  return changeConfig(db, (trx, version) => updateStream(trx, row.id, record, version, Date.now()));
}

export async function batchStreams(
  db: Kysely<Database>,
  owner: Owner,
  ids: readonly number[],
  action: 'enable' | 'disable' | 'delete' | 'move',
  groupId: number | null | undefined,
) {
  const rows = await findStreams(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: stream ${missing.join(', ')} does not exist`);
  if (action === 'move' && groupId === undefined)
    throw new AppError('invalid_param', 'group_id: is required to move streams');
  return changeConfig(db, async (trx, version) => {
    if (action === 'delete') return deleteStreams(trx, ids);
    for (const row of rows) {
      const settings = JSON.parse(row.settings) as StreamSettings;
      if (action !== 'move') settings.enabled = action === 'enable';
      const record: StreamRecord = {
        userId: row.user_id,
        groupId: action === 'move' ? (groupId ?? null) : row.group_id,
        name: row.name,
        settings,
      };
      if (action === 'move') await checkStream(trx, record, row.id);
      await updateStream(trx, row.id, record, version, Date.now());
    }
  });
}
