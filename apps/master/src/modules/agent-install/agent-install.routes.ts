import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http.ts';
import { policy } from '../../plugins/route-policy.ts';
import { agentBundle } from './bundle.ts';

const SCRIPT = readFileSync(join(import.meta.dirname, 'install.sh'), 'utf8');
const tags = ['nodes'];
/** What the script may take as the master's address: scheme, host (or [IPv6]) and port only. */
const MASTER_URL = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\])(?::[0-9]{1,5})?$/;

/** The address the server was reached at, as the script's default master; '' when it is not plain. */
function masterOf(request: FastifyRequest): string {
  const url = `${request.protocol}://${request.host}`;
  return MASTER_URL.test(url) ? url : '';
}

/**
 * The one-line agent install for Debian and Ubuntu: `curl -fsSL MASTER/agent/install.sh | sudo bash
 * -s -- --token T`, and what the script downloads (the agent bundle, the Node.js runtime, their
 * SHA256SUMS). Public: the install token is what admits a node, and it is in none of these.
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
  app.get('/agent/SHA256SUMS', { config: { policy: policy.public }, schema: { tags } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send((await agentBundle()).sums),
  );
  app.get(
    '/agent/rampart-agent.tar.gz',
    { config: { policy: policy.public }, schema: { tags } },
    async (_request, reply) => reply.type('application/gzip').send(createReadStream((await agentBundle()).archive)),
  );
  app.get('/agent/node', { config: { policy: policy.public }, schema: { tags } }, async (_request, reply) =>
    reply.type('application/octet-stream').send(createReadStream((await agentBundle()).node)),
  );
}
