import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refusedSites } from '../src/apply/probe.ts';
import { makeSite, makeStream } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const occupy = async (port: number): Promise<Server> => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
};

describe('apply: test, reload, prove, roll back', () => {
  let origin: Origin;
  const edges: TestEdge[] = [];
  const servers: Server[] = [];
  const newEdge = async (...args: Parameters<typeof createEdge>) => {
    const edge = await createEdge(...args);
    edges.push(edge);
    return edge;
  };
  const good = (id: number, domain: string) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
    });
  const served = async (edge: TestEdge, host: string, port = edge.ports.http) =>
    (await edgeRequest(port, { host })).status === 200;

  beforeAll(async () => {
    origin = await startOrigin('origin');
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    for (const edge of edges.splice(0)) await edge.close();
  });
  afterAll(async () => {
    await origin?.close();
  });

  const broken = () =>
    makeSite({
      id: 2,
      domains: ['broken.test'],
      origins: [{ address: 'no-such-origin.invalid', port: 80, weight: 1, backup: false }],
    });

  it('leaves out a site whose origin does not resolve before nginx sees it, and serves the others', async () => {
    const edge = await newEdge();
    const outcome = await edge.applier.apply(
      edge.snapshot({ version: 5, sites: [good(1, 'one.test'), broken(), good(3, 'three.test')] }),
    );
    expect(outcome).toMatchObject({ applied: true, liveVersion: 5, error: '' });
    expect(outcome.errors).toEqual([
      { kind: 'site', id: 2, error: 'origin host no-such-origin.invalid does not resolve' },
    ]);
    expect(await served(edge, 'one.test')).toBe(true);
    expect(await served(edge, 'three.test')).toBe(true);
  });

  it('the edge refuses a malformed route fed past the renderer, and serves the others', async () => {
    // Sites never reach nginx.conf; they are data for the Lua router, which checks every entry again.
    const edge = await newEdge();
    const outcome = await edge.applier.apply(edge.snapshot({ version: 5, sites: [good(1, 'one.test')] }));
    expect(outcome).toMatchObject({ applied: true, errors: [] });
    const routesPath = join(edge.paths.currentLink, 'routes.json');
    const routes = JSON.parse(await readFile(routesPath, 'utf8')) as { sites: Array<Record<string, unknown>> };
    const [one] = routes.sites;
    routes.sites.push(
      { ...one, id: 2, hosts: ['two.test'], peers: [{ ip: '127.0.0.1; drop', port: origin.port, weight: 1 }] },
      { ...one, id: 3, hosts: ['three.test'], response_headers: [['X-A', 'b\r\nSet-Cookie: x=1']] },
      { ...one, id: 4, hosts: ['four.test'], scheme: 'gopher' },
      { ...one, id: 5, hosts: ['five.test'] },
    );
    await writeFile(routesPath, JSON.stringify(routes));
    await edge.nginx.reload();
    await eventually(async () => expect(await refusedSites(edge.ports.control)).toHaveLength(3));
    // The old worker retires after the new one answers: wait until every answer is the new config's.
    await eventually(async () => {
      for (let i = 0; i < 5; i++) {
        expect(await served(edge, 'one.test')).toBe(true);
        expect(await served(edge, 'five.test')).toBe(true);
      }
    });
    // A refused site is not served: its names get the page of names no site serves.
    for (const host of ['two.test', 'three.test', 'four.test']) {
      expect((await edgeRequest(edge.ports.http, { host })).status).toBe(404);
    }
    // Read again until answered: the control server's answer is [] when it takes over a second (a
    // busy machine), which says nothing of what was refused.
    await eventually(async () => expect(await refusedSites(edge.ports.control)).toEqual([2, 3, 4]));
  });

  it('skips a site whose certificate does not match its key, and an invalid site, without touching the rest', async () => {
    const edge = await newEdge();
    const { makeSelfSignedCert } = await import('../src/testing/certs.ts');
    const [a, b] = [await makeSelfSignedCert(['a.test']), await makeSelfSignedCert(['b.test'])];
    const outcome = await edge.applier.apply(
      edge.snapshot({
        certs: [{ id: 1, cert_pem: a.cert_pem, key_pem: b.key_pem }],
        sites: [
          good(1, 'one.test'),
          makeSite({ id: 2, domains: ['a.test'], https_listen: true, cert_id: 1 }),
          makeSite({ id: 3, domains: ['evil.test"; return 200 "x'] }),
        ],
      }),
    );
    expect(outcome.applied).toBe(true);
    expect(outcome.errors.map((e) => [e.kind, e.id])).toEqual([
      ['cert', 1],
      ['site', 2],
      ['site', 3],
    ]);
    expect(await served(edge, 'one.test')).toBe(true);
  });

  it('detects a reload that does not take (port in use) and rolls back to the proven config', async () => {
    const edge = await newEdge();
    expect((await edge.applier.apply(edge.snapshot({ version: 1, sites: [good(1, 'one.test')] }))).applied).toBe(true);
    const busy = await freePort();
    servers.push(await occupy(busy));
    const outcome = await edge.applier.apply(
      edge.snapshot({ version: 2, node: { http_port: busy }, sites: [good(1, 'one.test'), good(2, 'two.test')] }),
    );
    expect(outcome.applied).toBe(false);
    expect(outcome.liveVersion).toBe(1);
    expect(outcome.error).toMatch(/did not go live.*Address already in use.*rolled back to version 1/);
    expect(await served(edge, 'one.test')).toBe(true);
    expect((await edge.applier.store.proven())?.version).toBe(1);
    // The next good snapshot applies normally.
    const next = await edge.applier.apply(
      edge.snapshot({ version: 3, sites: [good(1, 'one.test'), good(2, 'two.test')] }),
    );
    expect(next).toMatchObject({ applied: true });
    expect(await served(edge, 'two.test')).toBe(true);
  });

  it('leaves out a stream whose port is taken and applies the rest', async () => {
    const edge = await newEdge();
    expect((await edge.applier.apply(edge.snapshot({ version: 1, sites: [good(1, 'one.test')] }))).applied).toBe(true);
    const busy = await freePort();
    servers.push(await occupy(busy));
    const free = await freePort();
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [good(1, 'one.test'), good(2, 'two.test')],
        streams: [makeStream({ id: 7, listen_port: busy }), makeStream({ id: 8, listen_port: free })],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, liveVersion: 2, error: '' });
    expect(outcome.errors).toEqual([{ kind: 'stream', id: 7, error: expect.stringContaining(`port ${busy}`) }]);
    expect(await served(edge, 'two.test')).toBe(true);
  });

  it('a restarted agent serves the last proven config at once, without the master', async () => {
    const first = await newEdge();
    await first.applier.apply(first.snapshot({ version: 4, sites: [good(1, 'one.test')] }));
    await first.nginx.stop(2000);
    expect(await first.nginx.pid()).toBeNull();
    // A new agent on the same data directory: no master, no snapshot, only what is on disk.
    const proven = await first.newApplier().restoreLastProven();
    expect(proven?.version).toBe(4);
    expect(await served(first, 'one.test')).toBe(true);
    expect(Number(await readFile(first.paths.pidFile, 'utf8'))).toBeGreaterThan(1);
  });

  it('does not reload when only the version (or the jobs) changed', async () => {
    const edge = await newEdge();
    await edge.applier.apply(edge.snapshot({ version: 1, sites: [good(1, 'one.test')] }));
    const before = await edge.applier.store.proven();
    const outcome = await edge.applier.apply(edge.snapshot({ version: 2, sites: [good(1, 'one.test')] }));
    expect(outcome).toMatchObject({ applied: true, liveVersion: 2 });
    expect(await edge.applier.store.proven()).toMatchObject({ gen: before?.gen, version: 2 });
  });

  it('keeps the previous proven tree on disk and prunes older ones', async () => {
    const edge = await newEdge();
    for (const version of [1, 2, 3]) {
      const outcome = await edge.applier.apply(edge.snapshot({ version, sites: [good(1, `v${version}.test`)] }));
      expect(outcome.applied).toBe(true);
    }
    const trees = (await readdir(edge.paths.confRoot)).sort();
    expect(trees.map((t) => t.split('-')[0])).toEqual(['v2', 'v3']);
    expect((await edge.applier.store.proven())?.previous).toBe(trees[0]);
  });
});
