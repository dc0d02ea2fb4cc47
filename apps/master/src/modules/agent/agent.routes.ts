import { randomBytes } from 'node:crypto';
import {
  ConfigQuery,
  Envelope,
  JobResultBody,
  NODE_SECRET_HEADER,
  NodeRegistration,
  NodeStatusBody,
  RegisterNodeBody,
  RegistrationState,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { agentDownloadRoutes } from '../agent-install/agent-install.routes.ts';
import { hashToken } from '../auth/tokens.ts';
import { currentConfigVersion, waitForConfigChange } from '../config/config-version.ts';
import { pendingJobsFor } from '../jobs/jobs.repository.ts';
import { installToken } from '../nodes/install-token.ts';
import { recordAppliedState } from '../nodes/nodes.repository.ts';
import { replaceOriginHealth } from '../origin-health/origin-health.repository.ts';
import { callingNode, sameSecret } from './agent-auth.ts';
import { storedGzipMember } from './gzip-member.ts';
import { ANSWER_SUFFIX, answerParts, sharedPart } from './snapshot.ts';

const tags = ['agent'];
/** The config answers' common suffix as a gzip member, made once. */
const ANSWER_SUFFIX_GZIP = storedGzipMember(ANSWER_SUFFIX);

/**
 * /agent/v1: what agents call. Registration uses the install token; everything else the node
 * credential. The agent's downloads (bundle, runtime, sums) take either.
 */
export async function agentRoutes(app: App, { db }: AppContext) {
  await agentDownloadRoutes(app, db);
  app.post(
    '/agent/v1/register',
    {
      config: { policy: policy.agent },
      schema: { tags, body: RegisterNodeBody, response: { 200: Envelope(NodeRegistration) } },
    },
    async (request) => {
      if (!sameSecret(request.body.install_token, await installToken(db))) {
        throw new AppError('forbidden', 'install_token: not the cluster install token');
      }
      const pollSecret = randomBytes(24).toString('base64url');
      const row = await db
        .insertInto('pending_nodes')
        .values({
          hostname: request.body.hostname,
          ips: JSON.stringify(request.body.ips),
          agent_version: request.body.agent_version,
          secret_hash: hashToken(pollSecret),
          state: 'pending',
          node_id: null,
          credential: null,
          client_ip: request.ip,
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return ok({ pending_id: row.id, poll_secret: pollSecret });
    },
  );

  app.get(
    '/agent/v1/register/:id',
    {
      config: { policy: policy.agent },
      schema: {
        tags,
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 200: Envelope(RegistrationState) },
      },
    },
    async (request) => {
      const secret = request.headers[NODE_SECRET_HEADER];
      const row = await db
        .selectFrom('pending_nodes')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!row || typeof secret !== 'string' || row.secret_hash !== hashToken(secret)) {
        throw new AppError('login_required', 'unknown registration');
      }
      if (row.state !== 'accepted')
        return ok({ state: row.state === 'rejected' ? ('rejected' as const) : ('pending' as const) });
      if (!row.credential || row.node_id === null) {
        throw new AppError('conflict', 'the credential was already collected; register again');
      }
      await db.updateTable('pending_nodes').set({ credential: null }).where('id', '=', row.id).execute();
      return ok({ state: 'accepted' as const, node_id: row.node_id, credential: row.credential });
    },
  );

  // A closing master answers every held poll at once: its close waits for open requests, and the
  // agents come back to whichever master answers next.
  let closing = false;
  const held = new Set<AbortController>();
  app.addHook('preClose', async () => {
    closing = true;
    for (const poll of held) poll.abort();
  });

  app.get(
    '/agent/v1/config',
    { config: { policy: policy.agent }, schema: { tags, querystring: ConfigQuery } },
    async (request, reply) => {
      const node = await callingNode(db, request);
      const known = request.query.version ?? 0;
      const abort = new AbortController();
      request.raw.once('close', () => abort.abort());
      held.add(abort);
      // Subscribe before reading the version, so a change committed in between is not missed.
      const waiting = waitForConfigChange(known, closing ? 0 : (request.query.wait ?? 30) * 1000, abort.signal);
      let version: number;
      try {
        version = await currentConfigVersion(db);
        if (version <= known) version = (await waiting) ?? version;
      } finally {
        abort.abort();
        held.delete(abort);
      }
      // The next poll goes out on a new connection, so it reaches a master that is not closing.
      if (closing) reply.header('connection', 'close');
      if (version <= known) return ok({ version, changed: false });

      const shared = await sharedPart(db, version);
      const jobs = await pendingJobsFor(db, node.id);
      const settings = {
        id: node.id,
        http_port: node.http_port,
        https_port: node.https_port,
        max_cache_size_mb: node.max_cache_size_mb,
      };
      const { prefix, suffix } = answerParts(version, settings, jobs);
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        reply.header('content-encoding', 'gzip');
        return reply.send(Buffer.concat([storedGzipMember(prefix), shared.gzip, ANSWER_SUFFIX_GZIP]));
      }
      return reply.send(prefix + shared.json + suffix);
    },
  );

  app.post(
    '/agent/v1/status',
    { config: { policy: policy.agent }, schema: { tags, body: NodeStatusBody } },
    async (request) => {
      const node = await callingNode(db, request);
      const { applied_version, apply_errors, last_error, dropped_log_lines, origin_health } = request.body;
      await db.transaction().execute(async (trx) => {
        await recordAppliedState(trx, node.id, {
          applied_version,
          last_error,
          dropped_log_lines,
          updated_at: Date.now(),
        });
        for (let i = 0; i < apply_errors.length; i += 500) {
          await trx
            .insertInto('node_apply_errors')
            .values(
              apply_errors.slice(i, i + 500).map((entry) => ({
                node_id: node.id,
                kind: entry.kind,
                object_id: entry.id,
                error: entry.error,
                version: applied_version,
              })),
            )
            .execute();
        }
        if (origin_health) await replaceOriginHealth(trx, node.id, origin_health, Date.now());
      });
      return ok(null);
    },
  );

  app.post(
    '/agent/v1/jobs/:id/result',
    {
      config: { policy: policy.agent },
      schema: { tags, params: Type.Object({ id: Type.Integer({ minimum: 1 }) }), body: JobResultBody },
    },
    async (request) => {
      const node = await callingNode(db, request);
      const row = await db
        .updateTable('job_nodes')
        .set({ state: request.body.state, error: request.body.error, updated_at: Date.now() })
        .where('job_id', '=', request.params.id)
        .where('node_id', '=', node.id)
        .returning('job_id')
        .executeTakeFirst();
      if (!row) throw new AppError('not_found', `job ${request.params.id} is not assigned to this node`);
      return ok(null);
    },
  );
}
