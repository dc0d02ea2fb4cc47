import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { clusterBus } from '../cluster/bus.ts';
import { BackgroundWork } from './background.ts';
import { CommandBus } from './command-bus.ts';

export interface SysOpState {
  bus: CommandBus;
  work: BackgroundWork;
}

const states = new WeakMap<Kysely<Database>, SysOpState>();

/** One command bus and one set of background work per master (per database handle): the admin and agent routes share them. */
export function sysOpState(db: Kysely<Database>): SysOpState {
  let state = states.get(db);
  if (!state) {
    const bus = new CommandBus((nodes) => clusterBus(db).relay({ kind: 'commands', nodes }));
    clusterBus(db).on('commands', (event) => bus.wakeHere(event.nodes));
    state = { bus, work: new BackgroundWork() };
    states.set(db, state);
  }
  return state;
}

/** The master's close stops the work and forgets the state, so a new app on the same handle starts afresh. */
export async function stopSysOp(db: Kysely<Database>) {
  const state = states.get(db);
  states.delete(db);
  await state?.work.stop();
}
