import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, snapshotOf } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const PATH = '/v1/configs/global-0-agent-masters';

describe.each(DIALECTS)('the masters agents use, on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  it('is empty by default, and reaches every node with its config at a new version once set', async () => {
    const node = await acceptedNode(test);
    expect((await test.call('GET', PATH, { token: admin })).body.data).toEqual({ masters: [] });
    // Empty: the snapshot names none, so each agent keeps its own list.
    expect((await snapshotOf(test, node)).masters).toBeUndefined();

    const masters = ['https://m1.example.com', 'https://m2.example.com:8443', 'http://[2001:db8::1]:8080'];
    const version = await currentConfigVersion(test.database.db);
    const saved = await test.call('PUT', PATH, { token: admin, body: { masters } });
    expect(saved.body).toMatchObject({ code: 0, data: { masters } });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    expect((await snapshotOf(test, node)).masters).toEqual(masters);

    expect((await test.call('DELETE', PATH, { token: admin })).body.data).toEqual({ masters: [] });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 2);
    expect((await snapshotOf(test, node)).masters).toBeUndefined();
  });

  it('takes master addresses only, at most 16, each once, naming the field and the rule', async () => {
    const put = async (masters: unknown) => (await test.call('PUT', PATH, { token: admin, body: { masters } })).body;
    expect(await put(['https://m1.example.com', 'https://m1.example.com/path'])).toMatchObject({
      code: 'invalid_param',
      msg: 'body/masters/1: must be http(s)://host[:port], nothing after it',
    });
    expect((await put(['ftp://m1.example.com'])).msg).toBe(
      'body/masters/0: must be http(s)://host[:port], nothing after it',
    );
    const many = Array.from({ length: 17 }, (_, i) => `https://m${i}.example.com`);
    expect((await put(many)).msg).toBe(
      'body/masters: must be at most 16 different master addresses, each http(s)://host[:port]',
    );
    expect((await put(['https://m1.example.com', 'https://m1.example.com'])).msg).toBe(
      'body/masters: must be at most 16 different master addresses, each http(s)://host[:port]',
    );
    expect((await put(['https://m1.example.com', 'https://M1.example.com'])).msg).toBe(
      'body/masters: must list each master once (https://M1.example.com is there twice)',
    );
    expect((await test.call('GET', PATH, { token: admin })).body.data).toEqual({ masters: [] });
    expect((await put(many.slice(0, 16))).code).toBe(0);
  });

  it('is documented in OpenAPI with its schema', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string; requestBody?: unknown }>>;
    };
    const operations = document.paths[PATH];
    expect(Object.keys(operations ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(operations?.put?.description).toContain('failing over to the next');
    expect(JSON.stringify(operations?.put?.requestBody)).toContain('"maxItems":16');
  });
});
