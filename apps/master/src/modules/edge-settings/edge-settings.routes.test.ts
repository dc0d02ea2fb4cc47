import { DEFAULT_EDGE_SETTINGS } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, createSite, data, snapshotOf, userGroup } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const NGINX = '/v1/configs/global-0-edge-nginx';
const RES = '/v1/configs/global-0-edge-res';
const ERRORS = '/v1/configs/global-0-edge-error_pages';
const SITE_DEFAULTS = '/v1/configs/global-0-site-defaults';

describe.each(DIALECTS)('edge settings on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  it('answers the documented defaults and lists the edge entries for admins only', async () => {
    expect(data(await test.call('GET', NGINX, { token: admin }))).toEqual(DEFAULT_EDGE_SETTINGS.nginx);
    expect(data(await test.call('GET', RES, { token: admin }))).toEqual(DEFAULT_EDGE_SETTINGS.res);
    expect(data(await test.call('GET', ERRORS, { token: admin }))).toEqual({ default_language: 'zh-CN', pages: {} });
    expect(data(await test.call('GET', SITE_DEFAULTS, { token: admin }))).toMatchObject({ http_listen: true });
    const edge = data<{ list: Array<{ key: string }> }>(
      await test.call('GET', '/v1/configs?type=edge', { token: admin }),
    );
    expect(edge.list.map((entry) => entry.key)).toEqual([
      'global-0-edge-unknown_host',
      'global-0-edge-nginx',
      'global-0-edge-res',
      'global-0-edge-error_pages',
      'global-0-edge-enforcement',
    ]);
    expect((await test.call('GET', NGINX, { token: alice })).body.code).toBe('forbidden');
    expect((await test.call('PUT', RES, { token: alice, body: DEFAULT_EDGE_SETTINGS.res })).body.code).toBe(
      'forbidden',
    );
  });

  it('refuses values that would reach nginx unchecked, naming the field', async () => {
    const nginx = DEFAULT_EDGE_SETTINGS.nginx;
    const refused = async (path: string, body: unknown) => {
      const answer = await test.call('PUT', path, { token: admin, body });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe('invalid_param');
      return answer.body.msg as string;
    };
    expect(await refused(NGINX, { ...nginx, gzip_types: ['text/css; gzip off'] })).toMatch(/gzip_types/);
    expect(await refused(NGINX, { ...nginx, gzip_types: ['text/$host'] })).toMatch(/gzip_types/);
    expect(await refused(NGINX, { ...nginx, worker_processes: 65 })).toMatch(/worker_processes/);
    expect(await refused(NGINX, { ...nginx, worker_processes: '2; user root' })).toMatch(/worker_processes/);
    expect(await refused(NGINX, { ...nginx, client_max_body_size_mb: -1 })).toMatch(/client_max_body_size_mb/);
    expect(await refused(NGINX, { ...nginx, extra: 'x' })).toBeTruthy();
    const res = DEFAULT_EDGE_SETTINGS.res;
    expect(await refused(RES, { ...res, cache_path: '/var/cache/../../etc' })).toMatch(/cache_path/);
    expect(await refused(RES, { ...res, cache_path: '/cache"; include /etc' })).toMatch(/cache_path/);
    expect(await refused(RES, { ...res, max_open_files: 10 })).toMatch(/max_open_files/);
    const huge = 'x'.repeat(32_769);
    expect(await refused(ERRORS, { default_language: 'en-US', pages: { '404': { 'en-US': huge } } })).toMatch(/404/);
    expect(await refused(ERRORS, { default_language: 'en-US', pages: { '418': { 'en-US': 'teapot' } } })).toBeTruthy();
    expect(await refused(ERRORS, { default_language: 'fr-FR', pages: {} })).toMatch(/default_language/);
    // Nothing was stored.
    expect(data(await test.call('GET', NGINX, { token: admin }))).toEqual(nginx);
  });

  it('sends the settings to every node at a new config version, and back to the defaults on reset', async () => {
    const node = await acceptedNode(test);
    expect((await snapshotOf(test, node)).edge_settings).toEqual(DEFAULT_EDGE_SETTINGS);
    const nginx = { ...DEFAULT_EDGE_SETTINGS.nginx, client_max_body_size_mb: 1, gzip_types: ['text/css'] };
    const pages = {
      default_language: 'en-US',
      pages: { '404': { 'zh-CN': '<h1>找不到</h1>' }, waf: { 'en-US': 'no' } },
    };
    let version = await currentConfigVersion(test.database.db);
    expect(data(await test.call('PUT', NGINX, { token: admin, body: nginx }))).toEqual(nginx);
    expect(data(await test.call('PUT', ERRORS, { token: admin, body: pages }))).toEqual(pages);
    expect(await currentConfigVersion(test.database.db)).toBe(version + 2);
    expect((await snapshotOf(test, node)).edge_settings).toEqual({
      ...DEFAULT_EDGE_SETTINGS,
      nginx,
      error_pages: pages,
    });

    version = await currentConfigVersion(test.database.db);
    expect(data(await test.call('DELETE', NGINX, { token: admin }))).toEqual(DEFAULT_EDGE_SETTINGS.nginx);
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    expect((await snapshotOf(test, node)).edge_settings?.nginx).toEqual(DEFAULT_EDGE_SETTINGS.nginx);
  });

  it('new sites start with the admin defaults, under the owner defaults and what was sent', async () => {
    const group = await userGroup(test, alice);
    const defaults = {
      http_listen: true,
      https_listen: true,
      force_https: true,
      http2: true,
      gzip: false,
      cache_rules: [{ match: 'extension', value: 'png', ttl: 600, ignore_query: false, honor_origin: false }],
      rule_group_id: group.id,
    };
    // Site defaults are read when sites are created, not by the edges.
    const version = await currentConfigVersion(test.database.db);
    data(await test.call('PUT', SITE_DEFAULTS, { token: admin, body: defaults }));
    expect(await currentConfigVersion(test.database.db)).toBe(version);

    const settingsOf = async (token: string, id: number) =>
      data<Record<string, unknown>>(await test.call('GET', `/v1/sites/${id}`, { token }));
    const plain = await settingsOf(alice, await createSite(test, alice, 'a.example.com'));
    // No certificate: HTTP only, and nothing that needs HTTPS.
    expect(plain).toMatchObject({
      http_listen: true,
      https_listen: false,
      force_https: false,
      http2: false,
      gzip: false,
      cache_rules: defaults.cache_rules,
      protection: { rule_group_id: group.id },
    });
    const sent = await settingsOf(alice, await createSite(test, alice, 'b.example.com', { gzip: true }));
    expect(sent).toMatchObject({ gzip: true });
    // A group bob may not use is skipped for his sites, not an error.
    const bob = await addUser(test, 'bob');
    const his = await settingsOf(bob, await createSite(test, bob, 'c.example.com'));
    expect(his).toMatchObject({ protection: { rule_group_id: null }, gzip: false });
  });
});
