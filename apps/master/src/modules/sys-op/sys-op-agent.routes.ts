import { CommandResultBody, CommandsAnswer, CommandsQuery, Envelope, IdParams } from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { callingNode } from '../agent/agent-auth.ts';
import { blobContent, findBlob } from '../blobs/blob-store.ts';
import type { StoredSelfTest } from './agent-check.service.ts';
import { settleCommand, takePendingCommands } from './agent-commands.repository.ts';
import { advanceUpgrade } from './agent-upgrades.service.ts';
import { sysOpState } from './sys-op-state.ts';

const tags = ['agent'];
/** A held poll looks at the table again this often: commands another master gave are not announced here. */
const RECHECK_MS = 5000;

/** /agent/v1: the commands of /sys/op (self-test, upgrade, new master address), their answers and the release bundles. */
export async function sysOpAgentRoutes(app: App, { db }: AppContext) {
  const { bus } = sysOpState(db);
  const held = new Set<AbortController>();
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const poll of held) poll.abort();
  });

  app.get(
    '/agent/v1/commands',
    {
      config: { policy: policy.agent },
      schema: { tags, querystring: CommandsQuery, response: { 200: Envelope(CommandsAnswer) } },
    },
    async (request, reply) => {
      const node = await callingNode(db, request);
      const abort = new AbortController();
      request.raw.once('close', () => abort.abort());
      held.add(abort);
      const deadline = Date.now() + (closing ? 0 : (request.query.wait ?? 25) * 1000);
      try {
        for (;;) {
          const commands = await takePendingCommands(db, node.id, Date.now());
          const left = deadline - Date.now();
          if (commands.length > 0 || left <= 0 || abort.signal.aborted) return ok({ commands });
          await bus.wait(node.id, Math.min(left, RECHECK_MS), abort.signal);
        }
      } finally {
        held.delete(abort);
        if (closing) reply.header('connection', 'close');
      }
    },
  );

  app.post(
    '/agent/v1/commands/:id/result',
    { config: { policy: policy.agent }, schema: { tags, params: IdParams, body: CommandResultBody } },
    async (request) => {
      const node = await callingNode(db, request);
      const receivedAt = Date.now();
      const { state, log, self_test } = request.body;
      const stored: StoredSelfTest | null = self_test
        ? { self_test, clock_skew_ms: self_test.time_ms - receivedAt }
        : null;
      const row = await settleCommand(
        db,
        node.id,
        request.params.id,
        { state, log, result: stored ? JSON.stringify(stored) : '' },
        receivedAt,
      );
      if (!row) throw new AppError('not_found', `id: command ${request.params.id} is not open for this node`);
      if (row.kind === 'upgrade') {
        if (state === 'done') {
          const upgrade = await db
            .selectFrom('agent_upgrades')
            .select('version')
            .where('id', '=', row.ref_id)
            .executeTakeFirst();
          if (upgrade)
            await db.updateTable('nodes').set({ agent_version: upgrade.version }).where('id', '=', node.id).execute();
        }
        await advanceUpgrade(db, bus, row.ref_id);
      }
      if (row.kind === 'self-test' && self_test) {
        await db
          .updateTable('nodes')
          .set({ agent_version: self_test.agent_version })
          .where('id', '=', node.id)
          .execute();
      }
      return ok(null);
    },
  );

  app.get(
    '/agent/v1/releases/:id/bundle',
    {
      config: { policy: policy.agent },
      schema: { tags, params: IdParams, description: 'An agent release bundle, for a node that was sent its upgrade.' },
    },
    async (request, reply) => {
      const node = await callingNode(db, request);
      // Only a node given this release to install may fetch it.
      const sent = await db
        .selectFrom('agent_commands')
        .innerJoin('agent_upgrades', 'agent_upgrades.id', 'agent_commands.ref_id')
        .select('agent_commands.id')
        .where('agent_commands.kind', '=', 'upgrade')
        .where('agent_commands.node_id', '=', node.id)
        .where('agent_upgrades.release_id', '=', request.params.id)
        .where('agent_commands.state', '=', 'sent')
        .executeTakeFirst();
      if (!sent) throw new AppError('not_found', `id: release ${request.params.id} is not being sent to this node`);
      // From the blob store: any master serves a release whichever master received it.
      const release = await db
        .selectFrom('agent_releases')
        .select('blob_id')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      const blob = release?.blob_id ? await findBlob(db, release.blob_id) : undefined;
      if (!blob) {
        throw new AppError(
          'not_found',
          `id: the bundle of release ${request.params.id} is not in the database; upload the release again`,
        );
      }
      return reply.type('application/gzip').header('content-length', String(blob.size)).send(blobContent(db, blob));
    },
  );
}
