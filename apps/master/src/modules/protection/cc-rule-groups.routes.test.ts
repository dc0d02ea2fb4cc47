import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import {
  createFilter,
  createGroup,
  createMatch,
  createSite,
  data,
  pathMatch,
  rateFilter,
  userGroup,
} from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

describe.each(DIALECTS)('CC rule groups on $dialect', (target) => {
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

  it('keeps the lines in order with their ban time, and replaces them on update', async () => {
    const match = await createMatch(test, alice, pathMatch());
    const api = await createMatch(test, alice, pathMatch('api', '/api'));
    const filter = await createFilter(test, alice);
    const rules = [
      { match_id: api, filter_id: filter, action: 'ban', ban_seconds: 120 },
      { match_id: match, filter_id: filter, action: 'log' },
    ];
    const before = await currentConfigVersion(test.database.db);
    const group = data<Record<string, unknown>>(
      await test.call('POST', '/v1/cc-rules', { token: alice, body: { name: 'shop', rules } }),
    );
    expect(group).toMatchObject({
      name: 'shop',
      is_default: false,
      rules: [rules[0], { ...rules[1], ban_seconds: 600 }],
    });
    expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
    const id = group.id as number;
    expect((await test.call('GET', `/v1/cc-rules/${id}`, { token: alice })).body.data).toEqual(group);
    const renamed = await test.call('PUT', `/v1/cc-rules/${id}`, { token: alice, body: { name: 'store' } });
    expect(renamed.body.data).toMatchObject({ name: 'store', rules: group.rules });
    const swapped = await test.call('PUT', `/v1/cc-rules/${id}`, {
      token: alice,
      body: { rules: [{ match_id: match, filter_id: filter, action: 'block' }] },
    });
    expect(swapped.body.data).toMatchObject({ rules: [{ match_id: match, filter_id: filter, action: 'block' }] });
    const listed = await test.call('GET', '/v1/cc-rules?name=STO', { token: alice });
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ id, rules: [{ action: 'block' }] }] });
  });

  it('uses only matches and filters its owner may use: their own and system ones', async () => {
    const bob = await addUser(test, 'bob');
    const bobs = await createMatch(test, bob, pathMatch('bob'));
    const systemMatch = await createMatch(test, admin, { ...pathMatch('system'), system: true });
    const systemFilter = await createFilter(test, admin, { ...rateFilter('system'), system: true });
    const filter = await createFilter(test, alice);
    const line = (match_id: number, filter_id: number) => ({ match_id, filter_id, action: 'block' });
    const foreign = await test.call('POST', '/v1/cc-rules', {
      token: alice,
      body: { name: 'x', rules: [line(systemMatch, filter), line(bobs, filter)] },
    });
    expect(foreign.body).toMatchObject({
      code: 'invalid_param',
      msg: `rules/1/match_id: match ${bobs} does not exist`,
    });
    const missing = await test.call('POST', '/v1/cc-rules', {
      token: alice,
      body: { name: 'x', rules: [line(systemMatch, 999999)] },
    });
    expect(missing.body.msg).toBe('rules/0/filter_id: filter 999999 does not exist');
    expect(
      (
        await test.call('POST', '/v1/cc-rules', {
          token: alice,
          body: { name: 'x', rules: [line(systemMatch, systemFilter)] },
        })
      ).body.code,
    ).toBe(0);
    // A system group runs for every user: it may use system rows only.
    const system = await test.call('POST', '/v1/cc-rules', {
      token: admin,
      body: { name: 'sys', system: true, rules: [line(systemMatch, filter)] },
    });
    expect(system.body.msg).toBe(`rules/0/filter_id: filter ${filter} does not exist`);
    // An admin editing a user's group is held to the user's rows.
    const { id } = await userGroup(test, alice);
    const adminEdit = await test.call('PUT', `/v1/cc-rules/${id}`, {
      token: admin,
      body: { rules: [line(bobs, filter)] },
    });
    expect(adminEdit.body.msg).toBe(`rules/0/match_id: match ${bobs} does not exist`);
  });

  it('marks one system group the default, by an admin only', async () => {
    const own = await createGroup(test, alice, { name: 'mine' });
    const userDefault = await test.call('PUT', `/v1/cc-rules/${own}`, { token: alice, body: { is_default: true } });
    expect(userDefault.body).toMatchObject({
      code: 'forbidden',
      msg: 'is_default: only an administrator sets the default group',
    });
    const adminOwn = await test.call('PUT', `/v1/cc-rules/${own}`, { token: admin, body: { is_default: true } });
    expect(adminOwn.body).toMatchObject({
      code: 'invalid_param',
      msg: 'is_default: only a system rule group can be the default',
    });
    const first = await createGroup(test, admin, { name: 'basic', system: true, is_default: true });
    const second = await createGroup(test, admin, { name: 'strict', system: true });
    await test.call('PUT', `/v1/cc-rules/${second}`, { token: admin, body: { is_default: true } });
    const list = data<{ list: { id: number; is_default: boolean }[] }>(
      await test.call('GET', '/v1/cc-rules?user_id=0', { token: admin }),
    );
    expect(list.list.map(({ id, is_default }) => ({ id, is_default }))).toEqual([
      { id: second, is_default: true },
      { id: first, is_default: false },
    ]);
    const gone = await test.call('DELETE', `/v1/cc-rules/${second}`, { token: admin });
    expect(gone.body).toMatchObject({
      code: 'conflict',
      msg: `rule group ${second} is the default group of sites without one; make another group the default first`,
    });
  });

  it('refuses to delete what is in use, naming what uses it', async () => {
    const { id, matchId, filterId } = await userGroup(test, alice, 'shop');
    const usedMatch = await test.call('DELETE', `/v1/cc-matchs/${matchId}`, { token: alice });
    expect(usedMatch.body).toMatchObject({
      code: 'conflict',
      msg: `match ${matchId} is used by rule group ${id} (shop); change them first`,
    });
    const usedFilter = await test.call('PUT', '/v1/cc-filters', {
      token: alice,
      body: { ids: [filterId], action: 'delete' },
    });
    expect(usedFilter.body.msg).toBe(`filter ${filterId} is used by rule group ${id} (shop); change them first`);
    const siteId = await createSite(test, alice, 'shop.example.com', {
      name: 'the shop',
      protection: {
        rule_group_id: null,
        attack_rule_group_id: id,
        under_attack: false,
        whitelist: [],
        waf: { mode: 'off', paranoia: 1, exclusions: [] },
      },
    });
    const usedGroup = await test.call('DELETE', `/v1/cc-rules/${id}`, { token: alice });
    expect(usedGroup.body).toMatchObject({
      code: 'conflict',
      msg: `rule group ${id} is used by site ${siteId} (the shop); change them first`,
    });
    await test.call('DELETE', `/v1/sites/${siteId}`, { token: alice });
    expect((await test.call('DELETE', `/v1/cc-rules/${id}`, { token: alice })).body.code).toBe(0);
    expect((await test.call('DELETE', `/v1/cc-matchs/${matchId}`, { token: alice })).body.code).toBe(0);
    expect((await test.call('DELETE', `/v1/cc-filters/${filterId}`, { token: alice })).body.code).toBe(0);
  });

  it('does not take a group whose id is a prefix of a used one for used', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 11; i++) ids.push(await createGroup(test, alice, { name: `g${i}` }));
    const [one] = ids;
    const eleven = ids.find((id) => String(id).startsWith(String(one)) && id !== one);
    if (one === undefined || eleven === undefined) throw new Error('no group with a prefix id');
    await createSite(test, alice, 'p.example.com', {
      protection: {
        rule_group_id: eleven,
        attack_rule_group_id: null,
        under_attack: false,
        whitelist: [],
        waf: { mode: 'off', paranoia: 1, exclusions: [] },
      },
    });
    expect((await test.call('DELETE', `/v1/cc-rules/${one}`, { token: alice })).body.code).toBe(0);
    expect((await test.call('DELETE', `/v1/cc-rules/${eleven}`, { token: alice })).body.code).toBe('conflict');
  });
});
