import { join } from 'node:path';
import type { StartTransferBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { cancelOpenCommands, insertCommands } from './agent-commands.repository.ts';
import { pauseFor } from './background.ts';
import type { CommandBus } from './command-bus.ts';
import { backupDatabase } from './database-backup.ts';
import type { MasterUpgradeContext } from './master-upgrade.service.ts';
import { timeStamp } from './master-upgrade.service.ts';
import { abortOp, findOp, insertOp, logOp, openOp } from './sys-ops.repository.ts';

export interface TransferOptions {
  /** How often the new master is asked whether it answers, and the agents whether they moved. */
  pollMs: number;
  /** How long the agents have to take the new address. */
  agentsWaitMs: number;
}

export async function startTransfer(db: Kysely<Database>, body: StartTransferBody) {
  const open = (await openOp(db, 'transfer')) ?? (await openOp(db, 'master-upgrade'));
  if (open) throw new AppError('conflict', `${open.kind} ${open.id} is still running`);
  return insertOp(db, 'transfer', body.new_master, 'running');
}

/** Whether the master at `address` answers its public sysinfo call with the envelope. */
async function answers(address: string, signal: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(`${address}/v1/common/sysinfo`, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]),
      redirect: 'error',
    });
    const body = (await response.json()) as { code?: unknown };
    return response.ok && body.code === 0;
  } catch {
    return false;
  }
}

/**
 * Moves the fleet to a new master: exports the database for the new host, waits for the new master
 * to answer, then tells every agent the new address and waits for them to take it. Each step looks
 * at the transfer's state first, so stop-transfer (on any master) ends it.
 */
export async function runTransfer(
  ctx: MasterUpgradeContext,
  bus: CommandBus,
  id: number,
  body: StartTransferBody,
  options: TransferOptions,
  signal: AbortSignal,
) {
  const { db } = ctx;
  const stillOpen = async () => {
    const op = await findOp(db, id);
    return !signal.aborted && (op?.state === 'running' || op?.state === 'waiting');
  };
  try {
    await logOp(db, id, 'info', 'exporting the database');
    const exported = await backupDatabase(db, ctx.dialect, ctx.databaseUrl, {
      dir: join(ctx.paths.dataDir, 'transfer'),
      stamp: timeStamp(),
      kind: 'database-export',
      signal,
    });
    if (!(await stillOpen())) return;
    await logOp(
      db,
      id,
      'info',
      `export written: ${exported.where} (${exported.how}). Copy it to the new host with the data directory's secret key and start the master there; waiting for ${body.new_master} to answer`,
      'waiting',
    );
    const deadline = Date.now() + body.wait_minutes * 60_000;
    while (!(await answers(body.new_master, signal))) {
      if (!(await stillOpen())) return;
      if (Date.now() >= deadline) {
        await logOp(db, id, 'error', `${body.new_master} did not answer within ${body.wait_minutes} minutes`, 'failed');
        return;
      }
      await pauseFor(options.pollMs, signal);
    }
    if (!(await stillOpen())) return;
    const nodes = await db.selectFrom('nodes').select(['id', 'agent_version']).where('enabled', '=', 1).execute();
    await insertCommands(
      db,
      { kind: 'master-address', refId: id, payload: { master: body.new_master }, state: 'pending' },
      nodes,
      Date.now(),
    );
    bus.wake(nodes.map((node) => node.id));
    await logOp(db, id, 'info', `${body.new_master} answers; ${nodes.length} agents told the new address`, 'running');
    const agentsDeadline = Date.now() + options.agentsWaitMs;
    for (;;) {
      const rows = await db
        .selectFrom('agent_commands')
        .select(['state'])
        .where('kind', '=', 'master-address')
        .where('ref_id', '=', id)
        .execute();
      const moved = rows.filter((row) => row.state === 'done').length;
      const open = rows.filter((row) => row.state === 'pending' || row.state === 'sent').length;
      if (open === 0 || Date.now() >= agentsDeadline) {
        const left = rows.length - moved;
        await logOp(
          db,
          id,
          left === 0 ? 'info' : 'warn',
          `${moved} of ${rows.length} agents follow ${body.new_master}${left > 0 ? `; ${left} did not confirm: run the agent with --master ${body.new_master} there` : ''}`,
          'done',
        );
        await cancelOpenCommands(db, 'master-address', id, Date.now());
        return;
      }
      if (!(await stillOpen())) return;
      await pauseFor(options.pollMs, signal);
    }
  } catch (error) {
    await logOp(db, id, 'error', error instanceof Error ? error.message : String(error), 'failed');
  }
}

/** Ends the open transfer; agents not told yet are not told; those already moved are named. */
export async function stopTransfer(db: Kysely<Database>) {
  const op = await openOp(db, 'transfer');
  if (!op) throw new AppError('conflict', 'no transfer is running');
  await cancelOpenCommands(db, 'master-address', op.id, Date.now());
  if (!(await abortOp(db, op.id))) throw new AppError('conflict', 'no transfer is running');
  const moved = await db
    .selectFrom('agent_commands')
    .select('id')
    .where('kind', '=', 'master-address')
    .where('ref_id', '=', op.id)
    .where('state', 'in', ['sent', 'done'])
    .execute();
  await logOp(
    db,
    op.id,
    'warn',
    moved.length === 0
      ? 'stopped by an administrator; no agent was moved'
      : `stopped by an administrator; ${moved.length} agents had already been told the new address and follow it`,
  );
  return op.id;
}
