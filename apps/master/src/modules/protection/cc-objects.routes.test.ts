import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createFilter, createMatch, data, ipMatch, pathMatch, rateFilter } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

describe.each(DIALECTS)('CC matches and filters on $dialect', (target) => {
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

  it('creates, reads, renames and deletes a match', async () => {
    const created = data<Record<string, unknown>>(
      await test.call('POST', '/v1/cc-matchs', { token: alice, body: ipMatch() }),
    );
    expect(created).toMatchObject({
      name: 'bad ips',
      conditions: [{ field: 'ip', op: 'cidr', values: ['203.0.113.0/24'], negate: false }],
    });
    expect(created.user_id).toBeGreaterThan(0);
    const id = created.id as number;
    expect(data(await test.call('GET', `/v1/cc-matchs/${id}`, { token: alice }))).toEqual(created);
    const before = await currentConfigVersion(test.database.db);
    const renamed = await test.call('PUT', `/v1/cc-matchs/${id}`, { token: alice, body: { name: 'worse ips' } });
    expect(renamed.body.data).toMatchObject({ name: 'worse ips', conditions: created.conditions });
    expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
    expect((await test.call('DELETE', `/v1/cc-matchs/${id}`, { token: alice })).body.code).toBe(0);
    expect((await test.call('GET', `/v1/cc-matchs/${id}`, { token: alice })).status).toBe(404);
  });

  it('lists a user’s own and the system rows, pages them and searches names in any case', async () => {
    const system = await createMatch(test, admin, { ...pathMatch('System Login'), system: true });
    await createMatch(test, admin, pathMatch('admin own'));
    const own = await createMatch(test, alice, pathMatch('Alice login'));
    await createMatch(test, alice, pathMatch('alice api', '/api'));
    const list = data<{ list: { id: number }[]; total: number }>(
      await test.call('GET', '/v1/cc-matchs', { token: alice }),
    );
    expect(list.total).toBe(3);
    expect(list.list.map((row) => row.id)).toContain(system);
    const search = await test.call('GET', '/v1/cc-matchs?name=LOGIN&limit=1&page=2', { token: alice });
    expect(search.body.data).toMatchObject({ total: 2, list: [{ id: system }] });
    const wildcard = await test.call('GET', '/v1/cc-matchs?name=%25', { token: alice });
    expect(wildcard.body.data).toMatchObject({ total: 3 });
    expect(data<{ total: number }>(await test.call('GET', '/v1/cc-matchs', { token: admin })).total).toBe(4);
    const systemOnly = await test.call('GET', '/v1/cc-matchs?user_id=0', { token: admin });
    expect(systemOnly.body.data).toMatchObject({ total: 1, list: [{ id: system, user_id: 0 }] });
    expect((await test.call('GET', `/v1/cc-matchs/${own}`, { token: admin })).body.code).toBe(0);
  });

  it('lets only admins make system rows, and users only read them', async () => {
    const refused = await test.call('POST', '/v1/cc-matchs', { token: alice, body: { ...ipMatch(), system: true } });
    expect(refused.body).toMatchObject({ code: 'forbidden', msg: 'system: only an administrator makes system rows' });
    const id = await createMatch(test, admin, { ...ipMatch(), system: true });
    expect((await test.call('GET', `/v1/cc-matchs/${id}`, { token: alice })).body.data).toMatchObject({ user_id: 0 });
    const edit = await test.call('PUT', `/v1/cc-matchs/${id}`, { token: alice, body: { name: 'mine now' } });
    expect(edit.body).toMatchObject({
      code: 'forbidden',
      msg: `match ${id} is a system row: only an administrator changes it`,
    });
    expect((await test.call('DELETE', `/v1/cc-matchs/${id}`, { token: alice })).body.code).toBe('forbidden');
    const batch = await test.call('PUT', '/v1/cc-matchs', { token: alice, body: { ids: [id], action: 'delete' } });
    expect(batch.body.code).toBe('forbidden');
    expect((await test.call('PUT', `/v1/cc-matchs/${id}`, { token: admin, body: { name: 'ok' } })).body.code).toBe(0);
  });

  it('checks conditions beyond their schema and names the field', async () => {
    const cases: [object, string][] = [
      [{ field: 'ip', op: 'equals', values: ['1.2.3.4'] }, 'conditions/0/op: field ip compares with cidr'],
      [{ field: 'path', op: 'cidr', values: ['1.2.3.4'] }, 'conditions/0/op: cidr is for field ip only'],
      [
        { field: 'ip', op: 'cidr', values: ['1.2.3.4', '1.2.3.999'] },
        'conditions/0/values/1: 1.2.3.999 is not an IP address or CIDR range',
      ],
      [{ field: 'header', op: 'equals', values: ['x'] }, 'conditions/0/header: is required for field header'],
      [{ field: 'path', op: 'equals', values: ['/'], header: 'X-A' }, 'conditions/0/header: is only for field header'],
      [
        { field: 'path', op: 'regex', values: ['(a+)+$'] },
        'conditions/0/values/0: (a+)+$ repeats a repeated group (like (a+)+), which can take exponential time',
      ],
      [
        { field: 'uri', op: 'equals', values: ['/'] },
        'body/conditions/0/field: must be ip, path, query, method, user_agent, referer, header, host or country (the client address looked up in the GeoIP database; values are ISO 3166-1 alpha-2 codes, op equals)',
      ],
      [
        { field: 'country', op: 'equals', values: ['CN', 'China'] },
        'conditions/0/values/1: China is not an ISO 3166-1 alpha-2 country code (two upper-case letters, such as CN)',
      ],
      [
        { field: 'country', op: 'contains', values: ['C'] },
        'conditions/0/op: field country compares with equals (any one of the countries listed)',
      ],
      [
        { field: 'path', op: 'regex', values: ['a'.repeat(257)] },
        'body/conditions/0/values/0: must be 1 to 256 printable ASCII characters',
      ],
    ];
    for (const [condition, message] of cases) {
      const result = await test.call('POST', '/v1/cc-matchs', {
        token: alice,
        body: { name: 'm', conditions: [condition] },
      });
      expect(result.body, message).toMatchObject({ code: 'invalid_param', msg: message });
    }
    const empty = await test.call('POST', '/v1/cc-matchs', { token: alice, body: { name: 'm', conditions: [] } });
    expect(empty.body).toMatchObject({ code: 'invalid_param', msg: 'body/conditions: must be 1 to 16 conditions' });
    const header = await test.call('POST', '/v1/cc-matchs', {
      token: alice,
      body: {
        name: 'm',
        conditions: [{ field: 'header', header: 'X-Token', op: 'regex', values: ['^[a-f0-9]{32}$'] }],
      },
    });
    expect(header.body.code).toBe(0);
    const country = await test.call('POST', '/v1/cc-matchs', {
      token: alice,
      body: { name: 'm', conditions: [{ field: 'country', op: 'equals', values: ['CN', 'RU'], negate: true }] },
    });
    expect(country.body.code).toBe(0);
  });

  it('keeps only the settings of a filter’s type, with defaults, and requires what the type needs', async () => {
    const rate = data(await test.call('POST', '/v1/cc-filters', { token: alice, body: rateFilter() }));
    expect(rate).toMatchObject({ type: 'rate', requests: 100, seconds: 60, per: 'ip' });
    expect(rate).not.toHaveProperty('valid_seconds');
    const js = data(await test.call('POST', '/v1/cc-filters', { token: alice, body: { name: 'js', type: 'js' } }));
    expect(js).toMatchObject({ type: 'js', valid_seconds: 3600 });
    const refusals: [object, string][] = [
      [{ name: 'r', type: 'rate', requests: 10 }, 'seconds: is required for a rate filter'],
      [{ name: 'r', type: 'rate', seconds: 10 }, 'requests: is required for a rate filter'],
      [{ name: 'd', type: 'delay' }, 'delay_ms: is required for a delay filter'],
      [{ name: 'c', type: 'captcha', requests: 5 }, 'requests: is not a setting of a captcha filter'],
      [
        { name: 'd', type: 'delay', delay_ms: 10, valid_seconds: 600 },
        'valid_seconds: is not a setting of a delay filter',
      ],
      [{ name: 'r', type: 'rate', requests: 0, seconds: 1 }, 'body/requests: must be 1 to 1000000 requests'],
      [{ name: 'j', type: 'js', valid_seconds: 30 }, 'body/valid_seconds: must be 60 to 604800 seconds'],
      [{ name: 'x', type: 'block' }, 'body/type: must be rate, js, redirect, captcha or delay'],
    ];
    for (const [body, message] of refusals) {
      const result = await test.call('POST', '/v1/cc-filters', { token: alice, body });
      expect(result.body, message).toMatchObject({ code: 'invalid_param', msg: message });
    }
    const changed = await test.call('PUT', `/v1/cc-filters/${rate.id}`, {
      token: alice,
      body: { type: 'delay', delay_ms: 500 },
    });
    expect(changed.body.data).toEqual(expect.objectContaining({ name: '100 a minute', type: 'delay', delay_ms: 500 }));
    expect(changed.body.data).not.toHaveProperty('requests');
    const needs = await test.call('PUT', `/v1/cc-filters/${js.id}`, { token: alice, body: { type: 'rate' } });
    expect(needs.body.msg).toBe('requests: is required for a rate filter');
    const kept = await test.call('PUT', `/v1/cc-filters/${js.id}`, { token: alice, body: { type: 'captcha' } });
    expect(kept.body.data).toMatchObject({ type: 'captcha', valid_seconds: 3600 });
  });

  it('deletes in a batch, all or none', async () => {
    const ids = [await createFilter(test, alice), await createFilter(test, alice, rateFilter('second'))];
    const partial = await test.call('PUT', '/v1/cc-filters', {
      token: alice,
      body: { ids: [...ids, 999999], action: 'delete' },
    });
    expect(partial.body).toMatchObject({ code: 'not_found', msg: 'ids: filter 999999 does not exist' });
    expect(data<{ total: number }>(await test.call('GET', '/v1/cc-filters', { token: alice })).total).toBe(2);
    const other = await test.call('PUT', '/v1/cc-filters', { token: alice, body: { ids, action: 'disable' } });
    expect(other.body.code).toBe('invalid_param');
    expect(
      (await test.call('PUT', '/v1/cc-filters', { token: alice, body: { ids, action: 'delete' } })).body.code,
    ).toBe(0);
    expect(data<{ total: number }>(await test.call('GET', '/v1/cc-filters', { token: alice })).total).toBe(0);
  });
});
