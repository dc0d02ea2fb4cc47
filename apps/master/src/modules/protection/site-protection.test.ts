import { DEFAULT_SITE_PROTECTION, type Site, type SiteProtection } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createGroup, createSite, data, userGroup } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const protection = (fields: Partial<SiteProtection>): SiteProtection => ({ ...DEFAULT_SITE_PROTECTION, ...fields });

describe.each(DIALECTS)('site protection on $dialect', (target) => {
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

  it('reads a site saved before protection existed with the default protection', async () => {
    const id = await createSite(test, alice, 'old.example.com');
    const row = await test.database.db
      .selectFrom('sites')
      .select('settings')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const { protection: _dropped, ...old } = JSON.parse(row.settings) as Record<string, unknown>;
    await test.database.db
      .updateTable('sites')
      .set({ settings: JSON.stringify(old) })
      .where('id', '=', id)
      .execute();
    const site = data<Site>(await test.call('GET', `/v1/sites/${id}`, { token: alice }));
    expect(site.protection).toEqual(DEFAULT_SITE_PROTECTION);
    const listed = data<{ list: Site[] }>(await test.call('GET', '/v1/sites', { token: alice }));
    expect(listed.list[0]?.protection).toEqual(DEFAULT_SITE_PROTECTION);
  });

  it('starts new sites with the operator’s WAF defaults', async () => {
    const waf = { mode: 'detect', paranoia: 2, exclusions: [920350] };
    expect(data(await test.call('PUT', '/v1/configs/global-0-waf-defaults', { token: admin, body: waf }))).toEqual(waf);
    const id = await createSite(test, alice, 'new.example.com');
    const site = data<Site>(await test.call('GET', `/v1/sites/${id}`, { token: alice }));
    expect(site.protection).toEqual({ ...DEFAULT_SITE_PROTECTION, waf });
  });

  it('attaches the owner’s own and system rule groups, and never another user’s', async () => {
    const bob = await addUser(test, 'bob');
    const mine = await userGroup(test, alice);
    const system = await createGroup(test, admin, { name: 'system', system: true });
    const bobs = await userGroup(test, bob, 'bob rules');
    const id = await createSite(test, alice, 'shop.example.com');
    const wanted = protection({ rule_group_id: mine.id, attack_rule_group_id: system, under_attack: true });
    const saved = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { protection: wanted } });
    expect((saved.body.data as Site).protection).toEqual(wanted);
    for (const key of ['rule_group_id', 'attack_rule_group_id'] as const) {
      const foreign = await test.call('PUT', `/v1/sites/${id}`, {
        token: alice,
        body: { protection: protection({ [key]: bobs.id }) },
      });
      expect(foreign.body).toMatchObject({
        code: 'invalid_param',
        msg: `protection/${key}: rule group ${bobs.id} does not exist`,
      });
    }
    const created = await test.call('POST', '/v1/sites', {
      token: alice,
      body: {
        domains: ['b.example.com'],
        origins: [{ address: '127.0.0.1', port: 80, weight: 1, backup: false }],
        protection: protection({ rule_group_id: bobs.id }),
      },
    });
    expect(created.body.msg).toBe(`protection/rule_group_id: rule group ${bobs.id} does not exist`);
    // An admin creating a site for alice is held to what alice may use.
    const forAlice = await test.call('POST', '/v1/sites', {
      token: admin,
      body: {
        domains: ['c.example.com'],
        origins: [{ address: '127.0.0.1', port: 80, weight: 1, backup: false }],
        user_id: (saved.body.data as Site).user_id,
        protection: protection({ rule_group_id: bobs.id }),
      },
    });
    expect(forAlice.body.code).toBe('invalid_param');
  });

  it('checks the whitelist addresses and the WAF settings', async () => {
    const id = await createSite(test, alice, 'w.example.com');
    const put = (fields: Partial<SiteProtection>) =>
      test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { protection: protection(fields) } });
    expect((await put({ whitelist: ['10.0.0.0/8', '2001:db8::/48'] })).body.code).toBe(0);
    expect((await put({ whitelist: ['10.0.0.0/8', ':::'] })).body).toMatchObject({
      code: 'invalid_param',
      msg: 'protection/whitelist/1: ::: is not an IP address or CIDR range',
    });
    expect((await put({ whitelist: ['10.0.0.1/40'] })).body.msg).toMatch(/^body\/protection\/whitelist\/0: must be/);
    const paranoia = await put({ waf: { mode: 'block', paranoia: 5, exclusions: [] } });
    expect(paranoia.body.msg).toBe('body/protection/waf/paranoia: must be a paranoia level from 1 to 4');
    const mode = await put({ waf: { mode: 'on' as 'off', paranoia: 1, exclusions: [] } });
    expect(mode.body.msg).toBe('body/protection/waf/mode: must be off, detect or block');
  });
});
