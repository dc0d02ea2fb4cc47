import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, snapshotOf } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { CONFIGS } from './configs.ts';

const PATH = '/v1/configs/global-0-waf-defaults';
const DEFAULTS = { mode: 'off', paranoia: 1, exclusions: [] };
const UNKNOWN_HOST_PATH = '/v1/configs/global-0-edge-unknown_host';

describe.each(DIALECTS)('configs on $dialect', (target) => {
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

  it('reads, replaces and resets the WAF defaults', async () => {
    expect((await test.call('GET', PATH, { token: admin })).body).toMatchObject({ code: 0, data: DEFAULTS });
    const waf = { mode: 'block', paranoia: 3, exclusions: [920350, 942100] };
    expect((await test.call('PUT', PATH, { token: admin, body: waf })).body.data).toEqual(waf);
    expect((await test.call('GET', PATH, { token: admin })).body.data).toEqual(waf);
    const list = await test.call('GET', '/v1/configs?type=waf', { token: admin });
    expect(list.body.data).toEqual({
      list: [
        {
          key: 'global-0-waf-defaults',
          scope_name: 'global',
          scope_id: 0,
          type: 'waf',
          name: 'defaults',
          value: waf,
          updated_at: expect.any(String),
        },
      ],
      total: 1,
    });
    expect((await test.call('GET', '/v1/configs?type=nothing', { token: admin })).body.data).toEqual({
      list: [],
      total: 0,
    });
    expect((await test.call('DELETE', PATH, { token: admin })).body.data).toEqual(DEFAULTS);
    const all = (await test.call('GET', '/v1/configs', { token: admin })).body.data as { list: unknown[] };
    expect(all.list.slice(0, 2)).toMatchObject([
      { key: 'global-0-waf-defaults', value: DEFAULTS, updated_at: null },
      { key: 'global-0-edge-unknown_host', value: { action: 'page', waf: true }, updated_at: null },
    ]);
    // The edge settings (edge-settings.routes.test.ts), node monitoring, then the tabs of /sys/setting
    // (system-settings.routes.test.ts): every entry, an admin holding every permission.
    expect(all.list).toHaveLength(CONFIGS.length);
  });

  it('sends the answer to requests no site serves to the edges, with the WAF defaults, at a new config version', async () => {
    const node = await acceptedNode(test);
    // By default: the page, inspected with the WAF defaults (off until the admin turns them on).
    expect((await snapshotOf(test, node)).unknown_host).toEqual({ action: 'page', waf: DEFAULTS });
    const waf = { mode: 'block', paranoia: 2, exclusions: [920350] };
    let version = await currentConfigVersion(test.database.db);
    await test.call('PUT', PATH, { token: admin, body: waf });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    expect((await snapshotOf(test, node)).unknown_host).toEqual({ action: 'page', waf });

    version = await currentConfigVersion(test.database.db);
    const closed = await test.call('PUT', UNKNOWN_HOST_PATH, { token: admin, body: { action: 'close', waf: true } });
    expect(closed.body).toMatchObject({ code: 0, data: { action: 'close', waf: true } });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    // A closed connection is never inspected.
    expect((await snapshotOf(test, node)).unknown_host).toEqual({
      action: 'close',
      waf: { mode: 'off', paranoia: 2, exclusions: [] },
    });
    await test.call('PUT', UNKNOWN_HOST_PATH, { token: admin, body: { action: 'page', waf: false } });
    expect((await snapshotOf(test, node)).unknown_host).toEqual({
      action: 'page',
      waf: { mode: 'off', paranoia: 2, exclusions: [] },
    });

    const bad = await test.call('PUT', UNKNOWN_HOST_PATH, { token: admin, body: { action: 'drop', waf: true } });
    expect(bad.body.code).toBe('invalid_param');
    const alice = await addUser(test, 'alice2');
    expect((await test.call('GET', UNKNOWN_HOST_PATH, { token: alice })).body.code).toBe('forbidden');
    version = await currentConfigVersion(test.database.db);
    expect((await test.call('DELETE', UNKNOWN_HOST_PATH, { token: admin })).body.data).toEqual({
      action: 'page',
      waf: true,
    });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    expect((await snapshotOf(test, node)).unknown_host).toEqual({ action: 'page', waf });
  });

  it('checks the value with its schema and names the field', async () => {
    const bad = await test.call('PUT', PATH, { token: admin, body: { ...DEFAULTS, paranoia: 9 } });
    expect(bad.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/paranoia: must be a paranoia level from 1 to 4',
    });
    const extra = await test.call('PUT', PATH, { token: admin, body: { ...DEFAULTS, rules: 'SecRule' } });
    expect(extra.body.msg).toBe('body/rules: is not an accepted field');
  });

  it('is for admins with the config permission only', async () => {
    const body = { username: 'ops', password: 'ops-pass-1', type: 1, access: ['admin:node'] };
    expect((await test.call('POST', '/v1/users', { token: admin, body })).body.code).toBe(0);
    const ops = await test.login('ops', 'ops-pass-1');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const payload = method === 'PUT' ? { paranoia: 'x' } : undefined;
      const customer = await test.call(method, PATH, { token: alice, body: payload });
      expect(customer.body, method).toMatchObject({ code: 'forbidden', msg: 'this needs an administrator' });
      const staff = await test.call(method, PATH, { token: ops, body: payload });
      expect(staff.body, method).toMatchObject({ code: 'forbidden', msg: 'this needs the admin:config permission' });
    }
    expect((await test.call('GET', '/v1/configs', { token: alice })).body.data).toEqual({ list: [], total: 0 });
    const listed = (await test.call('GET', '/v1/configs', { token: ops })).body.data as { list: { key: string }[] };
    expect(listed.list.map((entry) => `/v1/configs/${entry.key}`)).not.toContain(PATH);
  });

  it('names keys that do not exist', async () => {
    const unknown = await test.call('GET', '/v1/configs/global-0-waf-nothing', { token: admin });
    expect(unknown.body).toMatchObject({ code: 'not_found', msg: 'config global-0-waf-nothing does not exist' });
    expect((await test.call('GET', '/v1/configs/not a key', { token: admin })).body.code).toBe('invalid_param');
  });
});
