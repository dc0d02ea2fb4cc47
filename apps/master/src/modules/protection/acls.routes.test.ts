import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const deny = (values: string[]) => ({ action: 'deny', condition: { field: 'ip', op: 'cidr', values } });
const allowPath = { action: 'allow', condition: { field: 'path', op: 'prefix', values: ['/health'] } };

describe.each(DIALECTS)('ACLs on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let siteId: number;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    siteId = await createSite(test, alice, 'acl.example.com');
  });
  afterEach(async () => {
    await test.close();
  });

  it('keeps one ordered ACL per site, changed and removed through the config version', async () => {
    const before = await currentConfigVersion(test.database.db);
    const created = data<Record<string, unknown>>(
      await test.call('POST', '/v1/acls', {
        token: alice,
        body: { site_id: siteId, entries: [allowPath, deny(['203.0.113.0/24'])] },
      }),
    );
    expect(created).toMatchObject({
      site_id: siteId,
      entries: [
        { ...allowPath, condition: { ...allowPath.condition, negate: false } },
        { action: 'deny', condition: { field: 'ip', values: ['203.0.113.0/24'], negate: false } },
      ],
    });
    expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
    const id = created.id as number;
    const again = await test.call('POST', '/v1/acls', { token: alice, body: { site_id: siteId, entries: [] } });
    expect(again.body).toMatchObject({
      code: 'conflict',
      msg: `site_id: site ${siteId} already has an ACL; change that one`,
    });
    const bySite = await test.call('GET', `/v1/acls?site_id=${siteId}`, { token: alice });
    expect(bySite.body.data).toMatchObject({ total: 1, list: [{ id }] });
    const changed = await test.call('PUT', `/v1/acls/${id}`, { token: alice, body: { entries: [deny(['10.0.0.1'])] } });
    expect(changed.body.data).toMatchObject({ entries: [{ condition: { values: ['10.0.0.1'] } }] });
    expect((await test.call('GET', `/v1/acls/${id}`, { token: alice })).body.data).toEqual(changed.body.data);
    expect((await test.call('DELETE', `/v1/acls/${id}`, { token: alice })).body.code).toBe(0);
    expect(await currentConfigVersion(test.database.db)).toBe(before + 3);
    expect((await test.call('GET', '/v1/acls', { token: alice })).body.data).toEqual({ list: [], total: 0 });
  });

  it('checks entries like match conditions and caps them at 1000', async () => {
    const bad = await test.call('POST', '/v1/acls', {
      token: alice,
      body: { site_id: siteId, entries: [allowPath, deny(['10.0.0.1', '10.0.0.300'])] },
    });
    expect(bad.body).toMatchObject({
      code: 'invalid_param',
      msg: 'entries/1/condition/values/1: 10.0.0.300 is not an IP address or CIDR range',
    });
    const action = await test.call('POST', '/v1/acls', {
      token: alice,
      body: { site_id: siteId, entries: [{ ...allowPath, action: 'drop' }] },
    });
    expect(action.body.msg).toBe('body/entries/0/action: must be allow or deny');
    const many = await test.call('POST', '/v1/acls', {
      token: alice,
      body: { site_id: siteId, entries: Array.from({ length: 1001 }, () => deny(['10.0.0.1'])) },
    });
    expect(many.body.msg).toBe('body/entries: must be at most 1000 entries');
  });

  it('goes with its site', async () => {
    const id = data(
      await test.call('POST', '/v1/acls', { token: alice, body: { site_id: siteId, entries: [allowPath] } }),
    ).id;
    await test.call('DELETE', `/v1/sites/${siteId}`, { token: alice });
    expect((await test.call('GET', `/v1/acls/${id}`, { token: alice })).status).toBe(404);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/acls', { token: admin })).body.data).toMatchObject({ total: 0 });
  });
});
