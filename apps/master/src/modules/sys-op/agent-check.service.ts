import { AGENT_CHECK_LIMITS, type AgentCheck, type AgentCheckNode, type SelfTestResult } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { commandsOf, insertCommands } from './agent-commands.repository.ts';
import type { CommandBus } from './command-bus.ts';

/** How long agents have to answer a self-test. */
export const ANSWER_WITHIN_S = 60;

/** What a node's self-test answer is kept as: the answer and the skew the master saw on receipt. */
export interface StoredSelfTest {
  self_test: SelfTestResult;
  clock_skew_ms: number;
}

/** Asks every enabled node for a self-test; the answers come back through /agent/v1/commands. */
export async function startAgentCheck(db: Kysely<Database>, bus: CommandBus): Promise<number> {
  const nodes = await db.selectFrom('nodes').select(['id', 'agent_version']).where('enabled', '=', 1).execute();
  const now = Date.now();
  const id = await db.transaction().execute(async (trx) => {
    // A node that missed an earlier check answers only the newest.
    await trx
      .updateTable('agent_commands')
      .set({ state: 'cancelled', updated_at: now })
      .where('kind', '=', 'self-test')
      .where('state', '=', 'pending')
      .execute();
    const row = await trx
      .insertInto('agent_checks')
      .values({ created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertCommands(trx, { kind: 'self-test', refId: row.id, payload: {}, state: 'pending' }, nodes, now);
    return row.id;
  });
  bus.wake(nodes.map((node) => node.id));
  return id;
}

/** The problems a self-test shows, in words an operator acts on. */
export function problemsOf(stored: StoredSelfTest, expectedVersion: number): string[] {
  const { self_test: test, clock_skew_ms: skew } = stored;
  const problems: string[] = [];
  if (!test.nginx_config_ok) problems.push(`nginx -t failed: ${test.nginx_output.slice(0, 300)}`);
  if (!test.nginx_running) problems.push('nginx is not running');
  const minFree = Math.min(AGENT_CHECK_LIMITS.minFreeBytes, test.disk_total_bytes * AGENT_CHECK_LIMITS.maxFreeRatio);
  if (test.disk_free_bytes < minFree) problems.push(`disk: ${test.disk_free_bytes} bytes free`);
  if (Math.abs(skew) > AGENT_CHECK_LIMITS.maxSkewMs) problems.push(`clock: ${skew} ms off the master's`);
  if (test.applied_version < expectedVersion) {
    problems.push(`config version ${test.applied_version} applied, ${expectedVersion} is current`);
  }
  return problems;
}

export async function agentCheck(db: Kysely<Database>, id: number): Promise<AgentCheck> {
  const check = await db.selectFrom('agent_checks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!check) throw new AppError('not_found', `id: agent check ${id} does not exist`);
  const expected = await currentConfigVersion(db);
  const commands = await commandsOf(db, 'self-test', id);
  // A node that is offline never answers: past this, its check reads as failed.
  const late = Date.now() - check.created_at > ANSWER_WITHIN_S * 1000;
  const nodes = commands.map((command): AgentCheckNode => {
    const base = {
      node_id: command.node_id,
      name: command.name ?? `#${command.node_id}`,
      expected_version: expected,
      agent_version: command.from_version,
      nginx_config_ok: null,
      nginx_running: null,
      disk_free_bytes: null,
      disk_total_bytes: null,
      clock_skew_ms: null,
      applied_version: null,
    };
    if (command.state === 'pending' || command.state === 'sent') {
      if (late) return { ...base, state: 'failed', ok: false, problems: [`no answer within ${ANSWER_WITHIN_S} s`] };
      return { ...base, state: 'pending', ok: false, problems: [] };
    }
    if (command.state === 'cancelled') {
      return { ...base, state: 'failed', ok: false, problems: ['no answer before a newer check replaced this one'] };
    }
    if (command.state !== 'done' || command.result === '') {
      return {
        ...base,
        state: 'failed',
        ok: false,
        problems: [command.log || 'the agent could not run its self-test'],
      };
    }
    const stored = JSON.parse(command.result) as StoredSelfTest;
    const problems = problemsOf(stored, expected);
    const test = stored.self_test;
    return {
      ...base,
      state: 'done',
      ok: problems.length === 0,
      agent_version: test.agent_version,
      nginx_config_ok: test.nginx_config_ok,
      nginx_running: test.nginx_running,
      disk_free_bytes: test.disk_free_bytes,
      disk_total_bytes: test.disk_total_bytes,
      clock_skew_ms: stored.clock_skew_ms,
      applied_version: test.applied_version,
      problems,
    };
  });
  return { id, created_at: new Date(check.created_at).toISOString(), nodes };
}

/** Waits up to `seconds` for every node of the check to answer, looking again as answers arrive. */
export async function waitForCheck(db: Kysely<Database>, id: number, seconds: number, signal: AbortSignal) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const check = await agentCheck(db, id);
    if (check.nodes.every((node) => node.state !== 'pending') || Date.now() >= deadline || signal.aborted) return check;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(200, Math.max(0, deadline - Date.now())));
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}
