import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, fastPathModuleOrSkip, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';

const MODULE = fastPathModuleOrSkip();
const PROBE_PATH = '/rampart-test/vars';
/** The anchor the probe's location goes before: the site server's `location /`. */
const SITE_LOCATION = '        location / {\n            rampart_route;';

type Reads = Record<string, [string | null, string | null]>;
interface Probe {
  indexed: string;
  before: Reads;
  after: Reads;
}

/**
 * ngx.var's reads through the nginx module's indexes (lua/rampart/ngx_var.lua, `rampart_lua_vars`)
 * give what lua-nginx-module's read by name gives, before and after the request changes under them
 * (support/ngx-var-probe.lua reads each both ways); without the directive every name is read by name.
 */
describe.skipIf(MODULE === null)('ngx.var by index in a real nginx', () => {
  let edge: TestEdge;
  let agentConf: string;
  const live = () => join(edge.paths.currentLink, 'nginx.conf');

  /** Restarts nginx on the agent's config with the probe's location, `edit`ed. */
  const startProbed = async (edit: (conf: string) => string = (conf) => conf) => {
    const probe = await readFile(join(import.meta.dirname, 'support', 'ngx-var-probe.lua'), 'utf8');
    const location = `        location = ${PROBE_PATH} {\n            rewrite_by_lua_block {\n${probe}\n            }\n        }\n\n`;
    const conf = edit(agentConf).replace(SITE_LOCATION, `${location}${SITE_LOCATION}`);
    expect(conf).toContain(PROBE_PATH);
    await writeFile(live(), conf);
    await edge.nginx.stop();
    expect((await edge.nginx.start(live())).ok).toBe(true);
  };

  const probe = async (): Promise<Probe> => {
    const answer = await edgeRequest(edge.ports.http, {
      host: 'vars.test',
      path: `${PROBE_PATH}?a=1`,
      headers: {
        'user-agent': 'probe/1',
        referer: 'https://from.test/',
        upgrade: 'h2c',
        'x-probe': 'one',
        cookie: 'probe=c1',
      },
    });
    expect(answer.status).toBe(200);
    return JSON.parse(answer.body) as Probe;
  };

  /** Each name's two reads agree, before and after the request changed. */
  const expectSameReads = (seen: Probe) => {
    for (const reads of [seen.before, seen.after]) {
      for (const [name, [viaVar, named]] of Object.entries(reads)) {
        expect(viaVar, name).toBe(named);
      }
    }
  };

  beforeAll(async () => {
    edge = await createEdge();
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [
          makeSite({
            id: 30,
            domains: ['vars.test'],
            origins: [{ address: '127.0.0.1', port: 9, weight: 1, backup: false }],
          }),
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
    agentConf = await readFile(live(), 'utf8');
    expect(agentConf).toContain('rampart_lua_vars ');
  });

  afterAll(async () => {
    await edge?.close();
  });

  it('reads the indexed variables as by name: headers, absent ones, and values changed after a read', async () => {
    await startProbed();
    const seen = await probe();
    expect(seen.indexed.split(' ')).toEqual(
      expect.arrayContaining(['args', 'http_range', 'http_upgrade', 'http_user_agent', 'rampart_site_id', 'uri']),
    );
    expectSameReads(seen);
    const { before, after } = seen;
    expect(before.uri?.[0]).toBe(PROBE_PATH);
    expect(after.uri?.[0]).toBe('/changed');
    expect(before.args?.[0]).toBe('a=1');
    expect(after.args?.[0]).toBe('a=2');
    expect(after.arg_a?.[0]).toBe('2');
    // A header without a variable of its own: absent, then set; present, then cleared.
    expect(before.http_range?.[0]).toBeNull();
    expect(after.http_range?.[0]).toBe('bytes=0-1');
    expect(before.http_upgrade?.[0]).toBe('h2c');
    expect(after.http_upgrade?.[0]).toBeNull();
    expect(before.http_x_probe?.[0]).toBe('one');
    expect(after.http_x_probe?.[0]).toBe('changed');
    expect(before.http_user_agent?.[0]).toBe('probe/1');
    expect(before.http_referer?.[0]).toBe('https://from.test/');
    expect(before.cookie_probe?.[0]).toBe('c1');
    expect(before.rampart_no_such_variable?.[0]).toBeNull();
    // One id a request, however often it is read.
    expect(before.request_id?.[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(after.request_id?.[0]).toBe(before.request_id?.[0]);
  });

  it('reads every variable by name when the config indexes none', async () => {
    await startProbed((conf) => conf.replace(/\n\s*rampart_lua_vars [^;]*;/, ''));
    const seen = await probe();
    expect(seen.indexed).toBe('');
    expectSameReads(seen);
    expect(seen.after.args?.[0]).toBe('a=2');
    expect(seen.after.http_range?.[0]).toBe('bytes=0-1');
  });
});
