import { EventEmitter } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import { clusterBus } from '../cluster/bus.ts';

/**
 * Every change to what edges serve runs through `changeConfig`: the change and the bump of the
 * global config version commit together, then long-polling agents are woken: this master's at once,
 * the other masters' through the cluster bus (PostgreSQL LISTEN/NOTIFY), which calls
 * `announceConfigVersion` there.
 */
const changes = new EventEmitter();
changes.setMaxListeners(0);

const configVersion = prepared(
  (db: Kysely<Database>) => db.selectFrom('config_state').select('version').where('id', '=', 1),
  () => [1],
);

/** The version every agent polls against (each poll asks: the query is compiled once). */
export async function currentConfigVersion(db: Kysely<Database>): Promise<number> {
  const [row] = await configVersion(db);
  if (!row) throw new Error('config_state has no row: the database is not migrated');
  return row.version;
}

export async function changeConfig<T>(
  db: Kysely<Database>,
  change: (trx: Transaction<Database>, version: number) => Promise<T>,
): Promise<T> {
  // Inside a caller's transaction (an import): the caller bumped the version once and announces it.
  if (db.isTransaction) return change(db as Transaction<Database>, await currentConfigVersion(db));
  let version = 0;
  const result = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('config_state')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    version = row.version;
    return change(trx, version);
  });
  changes.emit('version', version);
  clusterBus(db).relay({ kind: 'config', version });
  return result;
}

/** Wakes this master's held polls for a version another master committed. */
export const announceConfigVersion = (version: number) => void changes.emit('version', version);

/** How many config polls are waiting for a change right now. */
export const waitingForConfigChange = (): number => changes.listenerCount('version');

/** Resolves with the new version as soon as one newer than `known` commits, or with null after `ms`. */
export function waitForConfigChange(known: number, ms: number, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve) => {
    const done = (value: number | null) => {
      clearTimeout(timer);
      changes.off('version', onVersion);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onVersion = (version: number) => {
      if (version > known) done(version);
    };
    const onAbort = () => done(null);
    const timer = setTimeout(() => done(null), ms);
    changes.on('version', onVersion);
    signal?.addEventListener('abort', onAbort);
  });
}
