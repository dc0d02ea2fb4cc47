import { createServer } from 'node:http';
import { type EdgeSnapshot, NODE_TOKEN_HEADER } from '@rampart/contracts';
import type { App } from '../http.ts';

export interface EdgeStandIn {
  /** Challenge requests it answered, by token. */
  answered: string[];
  close(): Promise<void>;
}

/**
 * A stand-in for an agent, by the contract: long-polls its snapshot from the master, reports each
 * version applied, and answers `GET /.well-known/acme-challenge/{token}` on `port` from the
 * snapshot's `acme_challenges`, for any Host. (The real agent is tested in apps/agent/test/acme.test.ts.)
 */
export async function startEdgeStandIn(app: App, credential: string, port: number): Promise<EdgeStandIn> {
  let challenges = new Map<string, string>();
  const answered: string[] = [];
  const server = createServer((request, response) => {
    const token = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1];
    const answer = token ? challenges.get(token) : undefined;
    if (!token || answer === undefined) {
      response.writeHead(404).end();
      return;
    }
    answered.push(token);
    response.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  let stopped = false;
  const headers = { [NODE_TOKEN_HEADER]: credential };
  const loop = (async () => {
    let version = 0;
    while (!stopped) {
      const polled = await app.inject({ method: 'GET', url: `/agent/v1/config?version=${version}&wait=1`, headers });
      const data = (polled.json() as { data?: { version: number; changed: boolean; snapshot?: EdgeSnapshot } }).data;
      if (!data?.changed || !data.snapshot) continue;
      version = data.version;
      challenges = new Map(data.snapshot.acme_challenges.map((entry) => [entry.token, entry.key_authorization]));
      await app.inject({
        method: 'POST',
        url: '/agent/v1/status',
        headers,
        payload: { applied_version: version, apply_errors: [], last_error: '', dropped_log_lines: 0 },
      });
    }
  })();
  return {
    answered,
    async close() {
      stopped = true;
      await loop;
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
