import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, ORIGIN } from '../../test/protection.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { coveringWildcards, isIpLiteral } from './site-claims.ts';

describe('site domain claims, by rule', () => {
  it('knows IP literals in every spelling', () => {
    for (const ip of ['192.0.2.201', '127.0.0.1', '127.1', '::1', '[::1]', '[2001:db8::1]', '*.0.0.127']) {
      expect(isIpLiteral(ip), ip).toBe(true);
    }
    for (const name of ['www.example.com', '1.example.com', 'example.c0m', '*.example.com']) {
      expect(isIpLiteral(name), name).toBe(false);
    }
  });

  it('lists the wildcards above a name or a wildcard, not the wildcard itself', () => {
    expect(coveringWildcards('a.b.example.com')).toEqual(['*.b.example.com', '*.example.com', '*.com']);
    expect(coveringWildcards('*.b.example.com')).toEqual(['*.example.com', '*.com']);
  });
});

describe.each(DIALECTS)('site domain claims on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterAll(async () => {
    await test.close();
  });

  const create = (token: string, domains: string[]) =>
    test.call('POST', '/v1/sites', { token, body: { domains, origins: [ORIGIN] } });

  it('refuses IP literals as site domains, v4 and v6, bracketed or not, naming the domain', async () => {
    for (const ip of ['192.0.2.201', '127.0.0.1', '127.1', '::1', '[::1]', '[2001:db8::1]']) {
      const result = await create(alice, ['ok.example.com', ip]);
      expect(result.status, ip).toBe(400);
      expect(result.body.msg, ip).toBe(`body/domains/1: ${ip} is an IP address; a site's domains are names`);
    }
    const site = await createSite(test, alice, 'named.example.com');
    const edited = await test.call('PUT', `/v1/sites/${site}`, { token: alice, body: { domains: ['10.0.0.1'] } });
    expect(edited.body).toMatchObject({
      code: 'invalid_param',
      msg: "body/domains/0: 10.0.0.1 is an IP address; a site's domains are names",
    });
    expect(await test.database.db.selectFrom('site_domains').select('domain').execute()).toEqual([
      { domain: 'named.example.com' },
    ]);
  });

  it('keeps a wildcard off names and zones another user holds, at any depth, and the reverse', async () => {
    await createSite(test, bob, 'a.example.test');
    await createSite(test, bob, 'x.y.example.org');
    await createSite(test, bob, '*.shop.test');
    const refusals: [string, string][] = [
      ['*.example.test', "domains: *.example.test would cover a.example.test, which belongs to another user's site"],
      ['*.example.org', "domains: *.example.org would cover x.y.example.org, which belongs to another user's site"],
      ['b.shop.test', "domains: b.shop.test falls under *.shop.test, which belongs to another user's site"],
      ['c.d.shop.test', "domains: c.d.shop.test falls under *.shop.test, which belongs to another user's site"],
      ['*.sub.shop.test', "domains: *.sub.shop.test falls under *.shop.test, which belongs to another user's site"],
    ];
    for (const [domain, message] of refusals) {
      const result = await create(alice, [domain]);
      expect(result.status, domain).toBe(409);
      expect(result.body.msg, domain).toContain(message);
    }
    // The zone's own name is not under its wildcard (nginx matches *.shop.test to names below only).
    expect((await create(alice, ['shop.test'])).body.code).toBe(0);
  });

  it('lets one user hold a wildcard and names under it, in either order, and checks edits and moves', async () => {
    expect((await create(alice, ['*.mine.test'])).body.code).toBe(0);
    expect((await create(alice, ['a.mine.test'])).body.code).toBe(0);
    expect((await create(alice, ['b.ours.test'])).body.code).toBe(0);
    const wildcard = (await create(alice, ['*.ours.test'])).body.data as { id: number };
    expect(wildcard.id).toBeGreaterThan(0);
    expect((await create(bob, ['c.mine.test'])).status).toBe(409);
    const bobs = await createSite(test, bob, 'plain.bob.test');
    const edited = await test.call('PUT', `/v1/sites/${bobs}`, {
      token: bob,
      body: { domains: ['plain.bob.test', '*.ours.test'] },
    });
    expect(edited.body).toMatchObject({
      code: 'conflict',
      msg: 'domains: *.ours.test already belongs to another site',
    });
    const deeper = await test.call('PUT', `/v1/sites/${bobs}`, { token: bob, body: { domains: ['z.ours.test'] } });
    expect(deeper.body).toMatchObject({
      code: 'conflict',
      msg: "domains: z.ours.test falls under *.ours.test, which belongs to another user's site",
    });
    const group = (await test.call('POST', '/v1/site-groups', { token: alice, body: { name: 'g' } })).body.data as {
      id: number;
    };
    const moved = await test.call('PUT', '/v1/sites', {
      token: alice,
      body: { ids: [wildcard.id], action: 'move', group_id: group.id },
    });
    expect(moved.body.code).toBe(0);
  });
});
