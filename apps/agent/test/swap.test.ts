import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EdgeProtection } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { swapKey } from '../src/apply/applier.ts';
import { readOrCreateKey } from '../src/fs-atomic.ts';
import { localRequest } from '../src/local-http.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

/**
 * A change of routing data alone (a site's headers, a new site, a new certificate) is swapped into
 * the running workers without a reload; anything nginx itself reads still reloads. Two workers, so
 * that the proof covers every worker and not the one that answered.
 */
describe('apply: routing data swapped in without a reload', () => {
  let origin: Origin;
  const edges: TestEdge[] = [];
  beforeAll(async () => {
    origin = await startOrigin('origin');
  });
  afterEach(async () => {
    for (const edge of edges.splice(0)) await edge.close();
  });
  afterAll(async () => {
    await origin?.close();
  });

  const twoWorkers = async () => {
    const edge = await createEdge({ workers: 2 });
    edges.push(edge);
    return edge;
  };
  const site = (id: number, domain: string, header: string, extra: Parameters<typeof makeSite>[0] = {}) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      response_headers: [{ name: 'X-Change', value: header }],
      ...extra,
    });
  /** Eight fresh connections, spread over the workers by the kernel: the header each answer had. */
  const headers = async (edge: TestEdge, host: string) => {
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const answer = await edgeRequest(edge.ports.http, { host });
      seen.add(`${answer.status} ${answer.headers['x-change'] ?? ''}`);
    }
    return [...seen];
  };
  const version = async (edge: TestEdge) => (await localRequest({ port: edge.ports.control, path: '/version' }))?.body;
  /** How many swaps the workers took from a delta and from the whole data. */
  const swaps = async (edge: TestEdge) =>
    JSON.parse((await localRequest({ port: edge.ports.control, path: '/swaps' }))?.body ?? 'null') as {
      delta: number;
      full: number;
    };

  it('swaps a changed header into both workers: same workers, every answer new, the version proven', async () => {
    const edge = await twoWorkers();
    expect((await edge.applier.apply(edge.snapshot({ version: 1, sites: [site(1, 'one.test', 'a')] }))).applied).toBe(
      true,
    );
    const workers = (await edge.nginx.workers()).sort();
    expect(workers).toHaveLength(2);
    const first = await edge.applier.store.proven();

    const outcome = await edge.applier.apply(edge.snapshot({ version: 2, sites: [site(1, 'one.test', 'b')] }));
    expect(outcome).toMatchObject({ applied: true, liveVersion: 2, error: '' });
    expect((await edge.nginx.workers()).sort()).toEqual(workers);
    // Proven as soon as apply returns: no answer of either worker is the old one.
    expect(await headers(edge, 'one.test')).toEqual(['200 b']);
    const proven = await edge.applier.store.proven();
    expect(proven).toMatchObject({ version: 2, shape: first?.shape, previous: first?.gen });
    expect(await version(edge)).toBe(proven?.token);
    // Each worker took only the changed site, from the table it served.
    expect(await swaps(edge)).toEqual({ delta: 2, full: 0 });
  });

  it('takes a swap only from the agent: without the key made with the node secret it is refused', async () => {
    const edge = await twoWorkers();
    await edge.applier.apply(edge.snapshot({ version: 1, sites: [site(1, 'one.test', 'a')] }));
    const token = (await edge.applier.store.proven())?.token ?? '';
    const routes = await readFile(join(edge.paths.currentLink, 'routes.json'), 'utf8');
    const forged = token.replace(/^1 /, '2 ');
    const hijack = routes
      .replace('"X-Change","a"', '"X-Change","hijacked"')
      .replace(`"token":"${token}"`, `"token":"${forged}"`);
    const post = (headers: Record<string, string>) =>
      localRequest({
        port: edge.ports.control,
        path: `/swap?token=${encodeURIComponent(forged)}`,
        method: 'POST',
        headers,
        body: `\n${hijack}`,
      });
    expect((await post({}))?.status).toBe(403);
    expect((await post({ 'x-rampart-swap-key': swapKey('not the node secret') }))?.status).toBe(403);
    expect(await headers(edge, 'one.test')).toEqual(['200 a']);
    expect(await swaps(edge)).toEqual({ delta: 0, full: 0 });
    // The agent's key is taken (and the same data then goes live).
    const secret = await readOrCreateKey(edge.paths.challengeKeyFile);
    expect((await post({ 'x-rampart-swap-key': swapKey(secret) }))?.status).toBe(200);
    await eventually(async () => expect(await headers(edge, 'one.test')).toEqual(['200 hijacked']));
  });

  /** How many certificates each worker holds parsed. */
  const parsed = async (edge: TestEdge) =>
    (
      JSON.parse((await localRequest({ port: edge.ports.control, path: '/certs' }))?.body ?? 'null') as {
        parsed: (number | null)[];
      } | null
    )?.parsed;

  it('parses certificates before their first handshake: in the master at start, in every worker after a swap', async () => {
    const edge = await twoWorkers();
    const [a, b] = [await makeSelfSignedCert(['a.test']), await makeSelfSignedCert(['b.test'])];
    const https = (id: number, domain: string, cert: number) =>
      site(id, domain, domain, { https_listen: true, http_listen: false, cert_id: cert });
    const first = edge.snapshot({ version: 1, certs: [{ id: 1, ...a }], sites: [https(1, 'a.test', 1)] });
    expect(await edge.applier.apply(first)).toMatchObject({ applied: true, errors: [] });
    // No handshake yet: both workers hold the certificate the master parsed.
    expect(await parsed(edge)).toEqual([1, 1]);

    const both = edge.snapshot({
      version: 2,
      certs: [
        { id: 1, ...a },
        { id: 2, ...b },
      ],
      sites: [https(1, 'a.test', 1), https(2, 'b.test', 2)],
    });
    expect(await edge.applier.apply(both)).toMatchObject({ applied: true, errors: [] });
    expect(await swaps(edge)).toEqual({ delta: 2, full: 0 });
    // Each worker parses the swapped-in certificate in the background, still before any handshake.
    await eventually(async () => expect(await parsed(edge)).toEqual([2, 2]));
    const answer = await edgeRequest(edge.ports.https, { host: 'b.test', tls: true });
    expect(answer.cert?.subject?.CN).toBe('b.test');
    // A certificate taken out is no longer counted as held for the table served.
    const back = edge.snapshot({ version: 3, certs: [{ id: 1, ...a }], sites: [https(1, 'a.test', 1)] });
    expect(await edge.applier.apply(back)).toMatchObject({ applied: true, errors: [] });
    await eventually(async () => expect(await parsed(edge)).toEqual([1, 1]));
    expect(await swaps(edge)).toEqual({ delta: 4, full: 0 });
    expect(await readFile(edge.paths.errorLog, 'utf8')).not.toMatch(/unusable|not parsed ahead/);
  });

  it('adds and removes sites and serves a new certificate by SNI through swaps', async () => {
    const edge = await twoWorkers();
    const [a, b] = [await makeSelfSignedCert(['a.test']), await makeSelfSignedCert(['b.test'])];
    const https = (id: number, domain: string, cert: number) =>
      site(id, domain, domain, { https_listen: true, http_listen: false, cert_id: cert });
    const certs = [{ id: 1, ...a }];
    await edge.applier.apply(edge.snapshot({ version: 1, certs, sites: [https(1, 'a.test', 1)] }));
    const workers = (await edge.nginx.workers()).sort();

    const both = edge.snapshot({
      version: 2,
      certs: [...certs, { id: 2, ...b }],
      sites: [https(1, 'a.test', 1), https(2, 'b.test', 2), site(3, 'three.test', 'c')],
    });
    expect(await edge.applier.apply(both)).toMatchObject({ applied: true, errors: [] });
    expect((await edge.nginx.workers()).sort()).toEqual(workers);
    for (let i = 0; i < 4; i++) {
      const answer = await edgeRequest(edge.ports.https, { host: 'b.test', tls: true });
      expect(answer.status).toBe(200);
      expect(answer.cert?.subject?.CN).toBe('b.test');
    }
    expect(await headers(edge, 'three.test')).toEqual(['200 c']);

    await edge.applier.apply(edge.snapshot({ version: 3, certs, sites: [https(1, 'a.test', 1)] }));
    expect((await edge.nginx.workers()).sort()).toEqual(workers);
    expect(await headers(edge, 'three.test')).toEqual(['404 ']);
    await expect(edgeRequest(edge.ports.https, { host: 'b.test', tls: true })).rejects.toThrow();
    expect((await edgeRequest(edge.ports.https, { host: 'a.test', tls: true })).cert?.subject?.CN).toBe('a.test');
    expect(await swaps(edge)).toEqual({ delta: 4, full: 0 });
  });

  it('swaps in a protection change (an ACL that denies) whole, without a reload, and lifts it the same way', async () => {
    const edge = await twoWorkers();
    const sites = [site(1, 'one.test', 'a')];
    await edge.applier.apply(edge.snapshot({ version: 1, sites }));
    const workers = (await edge.nginx.workers()).sort();
    const protection: EdgeProtection = {
      rule_groups: [],
      acls: [
        {
          site_id: 1,
          entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['127.0.0.0/8'], negate: false } }],
        },
      ],
      bans: [],
      unbans: [],
    };
    expect(await edge.applier.apply(edge.snapshot({ version: 2, sites, protection }))).toMatchObject({ applied: true });
    expect(await headers(edge, 'one.test')).toEqual(['403 ']);
    await edge.applier.apply(edge.snapshot({ version: 3, sites }));
    expect(await headers(edge, 'one.test')).toEqual(['200 a']);
    expect((await edge.nginx.workers()).sort()).toEqual(workers);
    // The rule groups, ACLs and bans are compiled for every site together: such a change goes whole.
    expect(await swaps(edge)).toEqual({ delta: 0, full: 4 });
  });

  it('reloads for what nginx reads itself (a cache rule), and a worker that restarts serves the swapped data', async () => {
    const edge = await twoWorkers();
    await edge.applier.apply(edge.snapshot({ version: 1, sites: [site(1, 'one.test', 'a')] }));
    await edge.applier.apply(edge.snapshot({ version: 2, sites: [site(1, 'one.test', 'x')] }));
    await edge.applier.apply(edge.snapshot({ version: 3, sites: [site(1, 'one.test', 'b')] }));
    const workers = (await edge.nginx.workers()).sort();
    expect(await swaps(edge)).toEqual({ delta: 4, full: 0 });

    // A worker that dies starts again from the master's table (version 1) and catches up at once: the
    // last delta starts from version 2, so it takes the whole data.
    process.kill(workers[0]!, 'SIGKILL');
    await eventually(async () => {
      const now = await edge.nginx.workers();
      expect(now).toHaveLength(2);
      expect(now).not.toContain(workers[0]);
    });
    await eventually(async () => expect(await version(edge)).toBe((await edge.applier.store.proven())?.token));
    expect(await headers(edge, 'one.test')).toEqual(['200 b']);
    expect(await swaps(edge)).toEqual({ delta: 4, full: 1 });

    const cached = site(1, 'one.test', 'd', {
      cache_rules: [{ match: 'prefix', value: '/img/', ttl: 61, ignore_query: false, honor_origin: false }],
    });
    const before = await edge.applier.store.proven();
    expect(await edge.applier.apply(edge.snapshot({ version: 4, sites: [cached] }))).toMatchObject({ applied: true });
    const after = await edge.applier.store.proven();
    expect(after?.shape).not.toBe(before?.shape);
    const reloaded = await edge.nginx.workers();
    expect(reloaded.some((pid) => workers.includes(pid))).toBe(false);
    // The swap of the generation before is not applied again by the new workers.
    expect(await version(edge)).toBe(after?.token);
    expect(await headers(edge, 'one.test')).toEqual(['200 d']);
  });
});
