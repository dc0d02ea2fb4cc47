import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type DnsServer, startDnsServer } from '../../test/dns-server.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

const origins = [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }];

describe.each(DIALECTS)('CNAME targets and checks on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  let dns: DnsServer | undefined;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
    await dns?.close();
    dns = undefined;
  });

  const createSite = async (domains: string[]) =>
    (await test.call('POST', '/v1/sites', { token: alice, body: { domains, origins } })).body.data as {
      id: number;
      cname: string;
    };

  it('says so when no CNAME domain is set up, and gives each site its target once one is', async () => {
    const site = await createSite(['www.shop.test']);
    expect(site).toMatchObject({ cname: '', cname_state: 'no_cname_domain' });
    const check = await test.call('POST', '/v1/cname-check', { token: alice, body: { site_id: site.id } });
    expect(check.body).toMatchObject({
      code: 'conflict',
      msg: 'no CNAME domain is set up yet; an administrator adds one first',
    });
    expect(
      (await test.call('POST', '/v1/cname-domains', { token: alice, body: { domain: 'cdn.rampart.test' } })).status,
    ).toBe(403);
    await test.call('POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn.rampart.test', is_default: true },
    });
    // A target, but no line group for it to point at yet.
    expect((await test.call('GET', `/v1/sites/${site.id}`, { token: alice })).body.data).toMatchObject({
      cname: `s${site.id}.cdn.rampart.test`,
      cname_state: 'no_line_group',
    });
    const group = await test.call('POST', '/v1/node-groups', {
      token: admin,
      body: { name: 'Main', host: 'edge', is_default: true },
    });
    expect(group.body.code).toBe(0);
    const listed = (await test.call('GET', '/v1/sites', { token: alice })).body.data as {
      list: { id: number; cname: string; cname_state: string }[];
    };
    expect(listed.list.find((row) => row.id === site.id)).toMatchObject({
      cname: `s${site.id}.cdn.rampart.test`,
      cname_state: 'ready',
    });
  });

  it('resolves every domain of the site through a real DNS server and says which point to the target', async () => {
    await test.call('POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn.rampart.test', is_default: true },
    });
    const site = await createSite([
      'www.shop.test',
      'api.shop.test',
      '*.img.shop.test',
      'a.shop.test',
      'missing.shop.test',
    ]);
    const targetName = `s${site.id}.cdn.rampart.test`;
    dns = await startDnsServer({
      cname: {
        'www.shop.test': targetName,
        'api.shop.test': 'elsewhere.example',
        'rampart-check.img.shop.test': `${targetName}.`,
      },
      a: { 'a.shop.test': '192.0.2.1' },
    });
    await saveSetting(test.database.db, 'dns_resolver', dns.address);
    const check = await test.call('POST', '/v1/cname-check', { token: alice, body: { site_id: site.id } });
    expect(check.body.data).toEqual({
      target: targetName,
      domains: [
        { domain: 'www.shop.test', cname: targetName, points: true, reason: '' },
        {
          domain: 'api.shop.test',
          cname: 'elsewhere.example',
          points: false,
          reason: `points to elsewhere.example, not to ${targetName}`,
        },
        { domain: '*.img.shop.test', cname: targetName, points: true, reason: '' },
        { domain: 'a.shop.test', cname: null, points: false, reason: 'has no CNAME record' },
        { domain: 'missing.shop.test', cname: null, points: false, reason: 'does not exist in DNS' },
      ],
    });
    const bob = await addUser(test, 'bob');
    expect((await test.call('POST', '/v1/cname-check', { token: bob, body: { site_id: site.id } })).status).toBe(404);
  });

  it("checks another user's site only for an admin holding admin:user", async () => {
    const site = await createSite(['www.shop.test']);
    const staff = async (username: string, access: string[]) => {
      const body = { username, password: `${username}-pass-1`, type: 1, access };
      expect((await test.call('POST', '/v1/users', { token: admin, body })).body.code).toBe(0);
      return test.login(username, `${username}-pass-1`);
    };
    const check = async (token: string) =>
      (await test.call('POST', '/v1/cname-check', { token, body: { site_id: site.id } })).body;
    // No CNAME domain yet: a caller who reaches the site hears so (conflict), one who does not gets not_found.
    expect(await check(await staff('ops', ['admin:node']))).toMatchObject({ code: 'not_found' });
    expect(await check(await staff('support', ['admin:user']))).toMatchObject({ code: 'conflict' });
    expect(await check(admin)).toMatchObject({ code: 'conflict' });
  });
});

describe('CNAME domains', () => {
  let test: TestApp;
  let admin: string;
  beforeAll(async () => {
    test = await startTestApp({ dialect: 'sqlite' });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await test.close();
  });

  it('keeps one default and refuses wildcards, duplicates and hostile names', async () => {
    await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain: 'a.cdn.test', is_default: true } });
    await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain: 'b.cdn.test', is_default: true } });
    const { list } = (await test.call('GET', '/v1/cname-domains', { token: admin })).body.data as {
      list: { domain: string; is_default: boolean }[];
    };
    expect(list.map((row) => [row.domain, row.is_default])).toEqual([
      ['a.cdn.test', false],
      ['b.cdn.test', true],
    ]);
    expect(
      (await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain: 'a.cdn.test' } })).status,
    ).toBe(409);
    expect(
      (await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain: '*.cdn.test' } })).body.msg,
    ).toBe('domain: a CNAME domain cannot be a wildcard');
    expect(
      (await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain: 'x;y.cdn.test' } })).body.code,
    ).toBe('invalid_param');
  });
});
