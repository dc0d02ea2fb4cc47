import type { AgentCommand } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type CommandKind = AgentCommand['kind'];
/** What a command carries besides id, kind and issue time. */
export type CommandPayload = Record<string, unknown>;

/** Commands for these nodes, `state` pending (sent at the next poll) or waiting (a later upgrade wave). */
export async function insertCommands(
  db: Kysely<Database>,
  command: { kind: CommandKind; refId: number; payload: CommandPayload; state: 'pending' | 'waiting' },
  nodes: readonly { id: number; agent_version?: string }[],
  now: number,
): Promise<void> {
  for (let i = 0; i < nodes.length; i += 500) {
    await db
      .insertInto('agent_commands')
      .values(
        nodes.slice(i, i + 500).map((node) => ({
          node_id: node.id,
          kind: command.kind,
          ref_id: command.refId,
          payload: JSON.stringify(command.payload),
          state: command.state,
          wave: null,
          from_version: node.agent_version ?? '',
          created_at: now,
          sent_at: null,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** The node's pending commands, marked sent: what one poll hands over. */
export async function takePendingCommands(db: Kysely<Database>, nodeId: number, now: number): Promise<AgentCommand[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('agent_commands')
      .select(['id', 'kind', 'payload', 'created_at'])
      .where('node_id', '=', nodeId)
      .where('state', '=', 'pending')
      .orderBy('id')
      .limit(20)
      .execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('agent_commands')
      .set({ state: 'sent', sent_at: now, updated_at: now })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .where('state', '=', 'pending')
      .execute();
    return rows.map(
      (row) =>
        ({
          ...(JSON.parse(row.payload) as CommandPayload),
          id: row.id,
          kind: row.kind,
          issued_at: row.created_at,
        }) as AgentCommand,
    );
  });
}

/** Records a node's answer to its command; null when the command is not the node's or already settled. */
export async function settleCommand(
  db: Kysely<Database>,
  nodeId: number,
  id: number,
  answer: { state: string; log: string; result: string },
  now: number,
) {
  return db
    .updateTable('agent_commands')
    .set({ state: answer.state, log: answer.log, result: answer.result, updated_at: now })
    .where('id', '=', id)
    .where('node_id', '=', nodeId)
    .where('state', 'in', ['pending', 'sent'])
    .returning(['id', 'kind', 'ref_id'])
    .executeTakeFirst();
}

export const commandsOf = (db: Kysely<Database>, kind: CommandKind, refId: number) =>
  db
    .selectFrom('agent_commands')
    .leftJoin('nodes', 'nodes.id', 'agent_commands.node_id')
    .select([
      'agent_commands.id',
      'agent_commands.node_id',
      'nodes.name',
      'agent_commands.state',
      'agent_commands.wave',
      'agent_commands.from_version',
      'agent_commands.result',
      'agent_commands.log',
      'agent_commands.updated_at',
    ])
    .where('agent_commands.kind', '=', kind)
    .where('agent_commands.ref_id', '=', refId)
    .orderBy('agent_commands.node_id')
    .execute();

/** Commands of one batch that never reached a settled state are given up. */
export async function cancelOpenCommands(db: Kysely<Database>, kind: CommandKind, refId: number, now: number) {
  await db
    .updateTable('agent_commands')
    .set({ state: 'cancelled', updated_at: now })
    .where('kind', '=', kind)
    .where('ref_id', '=', refId)
    .where('state', 'in', ['waiting', 'pending'])
    .execute();
}
