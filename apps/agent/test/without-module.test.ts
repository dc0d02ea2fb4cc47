import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

/**
 * A node whose nginx has no module of the agent's (nginx-dev missing, or `RAMPART_FAST_PATH=off`):
 * the Lua router serves every request, nginx's log module writes the access log from
 * `log_format rampart_access`, and a site without gzip has its Accept-Encoding taken off the
 * request (the origin gets it from a variable). CI builds the module, so this is the one place these
 * paths run.
 */
describe('the edge without its nginx module', () => {
  let edge: TestEdge;
  let origin: Origin;
  const before = process.env.RAMPART_FAST_PATH;

  beforeAll(async () => {
    process.env.RAMPART_FAST_PATH = 'off';
    edge = await createEdge({ waf: false });
    origin = await startOrigin('origin');
    const applied = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [
          makeSite({
            id: 41,
            domains: ['plain.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
            cache_rules: [{ match: 'prefix', value: '/static/', ttl: 300, ignore_query: true, honor_origin: false }],
          }),
        ],
      }),
    );
    expect(applied).toMatchObject({ applied: true, errors: [] });
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
    if (before === undefined) delete process.env.RAMPART_FAST_PATH;
    else process.env.RAMPART_FAST_PATH = before;
  });

  it('renders no line of the module, and serves, caches and logs every request through Lua', async () => {
    const conf = await readFile(join(edge.paths.currentLink, 'nginx.conf'), 'utf8');
    expect(conf).not.toContain('ngx_http_rampart_module');
    expect(conf).not.toContain('rampart_access_log');
    expect(conf).toContain('rampart_access buffer=64k flush=1s;');

    const get = (path: string) => edgeRequest(edge.ports.http, { host: 'plain.test', path });
    expect((await get('/static/a.css')).headers['x-cache-status']).toBe('MISS');
    expect((await get('/static/a.css?v=2')).headers['x-cache-status']).toBe('HIT');
    expect((await get('/page')).status).toBe(200);
    await eventually(async () => {
      const lines = (await readFile(edge.paths.accessLog, 'utf8')).split('\n').filter((line) => line !== '');
      const parsed = lines.map((line) => JSON.parse(line) as { site_id: string; uri: string; cache_status: string });
      expect(parsed.map(({ site_id, uri, cache_status }) => `${site_id} ${uri} ${cache_status}`)).toEqual([
        '41 /static/a.css MISS',
        '41 /static/a.css?v=2 HIT',
        '41 /page ',
      ]);
    });
  });

  it('compresses nothing for a site without gzip, and the origin still gets Accept-Encoding', async () => {
    // The origin echoes the headers it got: a long one makes the answer long enough to compress.
    const answer = await edgeRequest(edge.ports.http, {
      host: 'plain.test',
      path: '/echo',
      headers: { 'accept-encoding': 'gzip', 'x-pad': 'x'.repeat(400) },
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(answer.body) as { headers: Record<string, string> }).headers['accept-encoding']).toBe('gzip');
  });
});
