import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_SITE_HEALTH_CHECK, type OriginHealthEntry, type SiteHealthCheck } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.ts';
import { silentLogger } from '../src/logger.ts';
import { readOriginHealth } from '../src/render/health-check-report.ts';
import { makeSite, makeSnapshot } from '../src/testing/snapshots.ts';
import { agentNginx, testAgentOptions } from './support/agent.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { startFakeMaster } from './support/fake-master.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { freePort } from './support/ports.ts';

interface HealthHit {
  path: string;
  host: string;
  userAgent: string;
  status: number;
}

/**
 * A loopback origin that can be stopped and started again on its port. It answers visitors 200
 * with its name, and its health path with `healthStatus`; it records both.
 */
async function startCheckedOrigin(name: string) {
  const origin = {
    name,
    port: 0,
    healthStatus: 200,
    health: [] as HealthHit[],
    visitors: 0,
    server: null as Server | null,
    sockets: new Set<Socket>(),
    async start() {
      const server = createServer((req, res) => {
        req.resume();
        if (req.url?.startsWith('/healthz')) {
          const status = origin.healthStatus;
          origin.health.push({
            path: req.url,
            host: String(req.headers.host),
            userAgent: String(req.headers['user-agent']),
            status,
          });
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end('health\n');
          return;
        }
        origin.visitors++;
        res.writeHead(200, { 'content-type': 'text/plain', 'x-origin': name });
        res.end(`${name}\n`);
      });
      server.on('connection', (socket) => {
        origin.sockets.add(socket);
        socket.on('close', () => origin.sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(origin.port, '127.0.0.1', resolve));
      const address = server.address();
      origin.port = typeof address === 'object' && address ? address.port : 0;
      origin.server = server;
    },
    async stop() {
      const server = origin.server;
      origin.server = null;
      if (!server) return;
      for (const socket of origin.sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await origin.start();
  return origin;
}
type CheckedOrigin = Awaited<ReturnType<typeof startCheckedOrigin>>;

const CHECK: SiteHealthCheck = {
  ...DEFAULT_SITE_HEALTH_CHECK,
  enabled: true,
  path: '/healthz?from=edge',
  interval: 1,
  timeout: 1,
  failures: 2,
  successes: 2,
};

describe('origin health checks, through a real nginx with two workers', () => {
  let edge: TestEdge;
  let a: CheckedOrigin;
  let b: CheckedOrigin;

  beforeAll(async () => {
    edge = await createEdge({ workers: 2, waf: false });
    a = await startCheckedOrigin('a');
    b = await startCheckedOrigin('b');
    const origins = [a, b].map((origin) => ({ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }));
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [
          makeSite({ id: 1, domains: ['*.wild.test', 'app.test'], origins, health_check: CHECK }),
          // Never set: not checked, not reported.
          makeSite({ id: 2, domains: ['plain.test'], origins }),
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await a?.stop();
    await b?.stop();
  });

  const states = async () => (await readOriginHealth(edge.ports.control)) ?? [];
  const stateOf = async (origin: CheckedOrigin): Promise<OriginHealthEntry | undefined> =>
    (await states()).find((entry) => entry.port === origin.port);
  /** Waits until the edge says `origin` is up (true) or down (false). */
  const until = (origin: CheckedOrigin, up: boolean) =>
    eventually(async () => {
      const state = await stateOf(origin);
      expect(state?.up).toBe(up);
      return state as OriginHealthEntry;
    });
  /** `n` visitor requests; each must succeed; the origins that answered them. */
  const visit = async (n: number) => {
    const served: string[] = [];
    for (let i = 0; i < n; i++) {
      const answer = await edgeRequest(edge.ports.http, { host: 'app.test', path: `/page/${i}` });
      expect(answer.status).toBe(200);
      served.push(String(answer.headers['x-origin']));
    }
    return served;
  };

  it('checks every origin of the site with the path and the site’s own Host, and reports each', async () => {
    await eventually(async () => {
      const list = await states();
      expect(list.map((entry) => [entry.site_id, entry.port]).sort()).toEqual(
        [
          [1, a.port],
          [1, b.port],
        ].sort(),
      );
      for (const entry of list) expect(entry).toMatchObject({ address: '127.0.0.1', up: true, error: '' });
      expect(list.every((entry) => entry.checked_at > 0)).toBe(true);
    });
    // The first name that is no wildcard, as the proxy would send it.
    expect(a.health[0]).toMatchObject({
      path: '/healthz?from=edge',
      host: 'app.test',
      userAgent: 'Rampart-Health-Check',
    });
    expect(b.health[0]?.host).toBe('app.test');
  });

  it('takes an origin that fails its checks out before a visitor meets it, and puts it back after it answers', async () => {
    b.healthStatus = 503;
    const failing = b.health.length;
    const down = await until(b, false);
    expect(down.error).toBe('status 503');
    // Taken out only after `failures` failed checks in a row.
    expect(b.health.slice(failing).filter((hit) => hit.status === 503).length).toBeGreaterThanOrEqual(CHECK.failures);
    const before = b.visitors;
    expect(new Set(await visit(12))).toEqual(new Set(['a']));
    expect(b.visitors).toBe(before);
    b.healthStatus = 200;
    const healing = b.health.length;
    await until(b, true);
    expect(b.health.slice(healing).filter((hit) => hit.status === 200).length).toBeGreaterThanOrEqual(CHECK.successes);
    await eventually(async () => expect(await visit(4)).toContain('b'));
  });

  it('takes a stopped origin out, serves every visitor from the other, and brings it back once started', async () => {
    await b.stop();
    const down = await until(b, false);
    expect(down.error).toMatch(/^connect: /);
    expect(new Set(await visit(12))).toEqual(new Set(['a']));
    await b.start();
    await until(b, true);
    await eventually(async () => expect(await visit(4)).toContain('b'));
  });

  it('uses every origin when the checks take all of them out, rather than none', async () => {
    a.healthStatus = 503;
    b.healthStatus = 503;
    await until(a, false);
    await until(b, false);
    expect(new Set(await visit(8))).toEqual(new Set(['a', 'b']));
    a.healthStatus = 200;
    b.healthStatus = 200;
    await until(a, true);
    await until(b, true);
  });
});

describe('the agent’s status report', () => {
  it('carries each checked origin’s state as the edge sees it', async () => {
    const origin = await startCheckedOrigin('a');
    const master = await startFakeMaster();
    master.accept = true;
    const options = await testAgentOptions(master.url);
    const agent = new Agent(options, silentLogger);
    try {
      const ports = { http: await freePort(), https: await freePort() };
      const origins = [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }];
      master.setSnapshot(
        makeSnapshot({
          version: 1,
          node: { id: 7, http_port: ports.http, https_port: ports.https },
          sites: [makeSite({ id: 5, domains: ['report.test'], origins, health_check: CHECK })],
        }),
      );
      await agent.start();
      // The first reports may come before the first check (checked_at 0); one after it says when.
      await eventually(async () => {
        const reported = master.statuses.at(-1)?.origin_health;
        expect(reported).toEqual([
          { site_id: 5, address: '127.0.0.1', port: origin.port, up: true, checked_at: expect.any(Number), error: '' },
        ]);
        expect(reported?.[0]?.checked_at).toBeGreaterThan(0);
      });
    } finally {
      await agent.stop();
      await agentNginx(options.dataDir).stop(2000);
      await master.close();
      await origin.stop();
      await rm(options.dataDir, { recursive: true, force: true });
    }
  });
});
