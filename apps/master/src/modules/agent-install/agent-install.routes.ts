import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.ts';
import type { App } from '../../http.ts';
import { policy } from '../../plugins/route-policy.ts';
import { admitAgentDownload } from '../agent/agent-auth.ts';
import { agentBundle } from './bundle.ts';

const SCRIPT = readFileSync(join(import.meta.dirname, 'install.sh'), 'utf8');
const tags = ['nodes'];
/** What the script may take as the master's address: scheme, host (or [IPv6]) and port only. */
const MASTER_URL = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\])(?::[0-9]{1,5})?$/;
/** Either admits a download; neither is required by the schema, so that a missing one answers 401. */
const DownloadHeaders = Type.Object({
  'install-token': Type.Optional(Type.String({ description: 'The cluster install token (a server being installed)' })),
  'node-token': Type.Optional(Type.String({ description: 'A node credential (an accepted node)' })),
});

/** The address the server was reached at, as the script's default master; '' when it is not plain. */
function masterOf(request: FastifyRequest): string {
  const url = `${request.protocol}://${request.host}`;
  return MASTER_URL.test(url) ? url : '';
}

/**
 * The one-line agent install for Debian and Ubuntu: `curl -fsSL MASTER/agent/install.sh | sudo bash
 * -s -- --token T`. Public: the script holds no secret; the install token it is given admits the
 * node and its downloads.
 */
export async function agentInstallRoutes(app: App) {
  app.get(
    '/agent/install.sh',
    { config: { policy: policy.public }, schema: { tags, description: 'The agent install script (bash)' } },
    async (request, reply) =>
      reply
        .type('text/x-shellscript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(SCRIPT.replace('@MASTER_URL@', masterOf(request))),
  );
}

/**
 * What the install script downloads: the agent bundle, the Node.js runtime and their SHA256SUMS.
 * Each answers only the cluster install token (Install-Token header) or a node credential
 * (Node-Token), checked before anything is streamed: the runtime alone is over 100 MB.
 */
export async function agentDownloadRoutes(app: App, db: Kysely<Database>) {
  const options = (description: string) => ({
    config: { policy: policy.agent },
    schema: {
      tags,
      description: `${description}; needs the install token or a node credential`,
      headers: DownloadHeaders,
    },
  });
  app.get('/agent/SHA256SUMS', options('SHA256SUMS of the agent bundle and runtime'), async (request, reply) => {
    await admitAgentDownload(db, request);
    return reply.type('text/plain; charset=utf-8').send((await agentBundle()).sums);
  });
  app.get('/agent/rampart-agent.tar.gz', options('The agent bundle (tar.gz)'), async (request, reply) => {
    await admitAgentDownload(db, request);
    return reply.type('application/gzip').send(createReadStream((await agentBundle()).archive));
  });
  app.get('/agent/node', options('The Node.js runtime the agent runs on'), async (request, reply) => {
    await admitAgentDownload(db, request);
    return reply.type('application/octet-stream').send(createReadStream((await agentBundle()).node));
  });
}
