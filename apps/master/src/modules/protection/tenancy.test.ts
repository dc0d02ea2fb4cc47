import { DEFAULT_SITE_PROTECTION } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, createSite, data, logLine, shipLogs, userGroup } from '../../test/protection.ts';
import { addUser, type CallResult, startTestApp, type TestApp } from '../../test/test-app.ts';

/** Every id-taking protection call, made by another user: none reads, uses, changes or deletes alice's rows. */
describe.each(DIALECTS)('protection tenancy on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  const refused = (result: CallResult, code: string, what: string) => {
    expect(result.body.code, `${what}: ${JSON.stringify(result.body)}`).toBe(code);
  };

  it('keeps alice’s matches, filters, groups, ACLs, bans and block log from bob', async () => {
    const group = await userGroup(test, alice, 'alice rules', 'ban');
    const siteId = await createSite(test, alice, 'alice.example.com', {
      protection: { ...DEFAULT_SITE_PROTECTION, rule_group_id: group.id },
    });
    const acl = data(
      await test.call('POST', '/v1/acls', {
        token: alice,
        body: {
          site_id: siteId,
          entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['10.0.0.1'] } }],
        },
      }),
    ).id;
    await test.call('POST', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: siteId, cidr: '10.0.0.2', seconds: 600 },
    });
    const node = await acceptedNode(test);
    await shipLogs(test, node, 1, [
      logLine({ site_id: siteId, client_ip: '10.0.0.3', block_reason: 'kind=rate;action=ban;detail=banned 600 s' }),
    ]);
    const before = JSON.stringify(
      await Promise.all(
        ['/v1/cc-matchs', '/v1/cc-filters', '/v1/cc-rules', '/v1/acls', '/v1/monitor/site/blackip'].map(
          async (url) => (await test.call('GET', url, { token: alice })).body.data,
        ),
      ),
    );

    const objects = [
      ['/v1/cc-matchs', group.matchId, { name: 'mine' }],
      ['/v1/cc-filters', group.filterId, { name: 'mine' }],
      ['/v1/cc-rules', group.id, { name: 'mine' }],
    ] as const;
    for (const [path, id, body] of objects) {
      refused(await test.call('GET', `${path}/${id}`, { token: bob }), 'not_found', `GET ${path}/${id}`);
      refused(await test.call('PUT', `${path}/${id}`, { token: bob, body }), 'not_found', `PUT ${path}/${id}`);
      refused(await test.call('DELETE', `${path}/${id}`, { token: bob }), 'not_found', `DELETE ${path}/${id}`);
      refused(
        await test.call('PUT', path, { token: bob, body: { ids: [id], action: 'delete' } }),
        'not_found',
        `batch ${path}`,
      );
      expect((await test.call('GET', path, { token: bob })).body.data, path).toEqual({ list: [], total: 0 });
    }
    // Using alice's match, filter or group in bob's own rows.
    const own = await userGroup(test, bob, 'bob rules');
    const line = { match_id: group.matchId, filter_id: own.filterId, action: 'block' };
    refused(
      await test.call('POST', '/v1/cc-rules', { token: bob, body: { name: 'x', rules: [line] } }),
      'invalid_param',
      'group with her match',
    );
    refused(
      await test.call('PUT', `/v1/cc-rules/${own.id}`, {
        token: bob,
        body: { rules: [{ ...line, match_id: own.matchId, filter_id: group.filterId }] },
      }),
      'invalid_param',
      'group with her filter',
    );
    const bobSite = await createSite(test, bob, 'bob.example.com');
    for (const key of ['rule_group_id', 'attack_rule_group_id']) {
      refused(
        await test.call('PUT', `/v1/sites/${bobSite}`, {
          token: bob,
          body: { protection: { ...DEFAULT_SITE_PROTECTION, [key]: group.id } },
        }),
        'invalid_param',
        `site ${key}`,
      );
    }
    // ACLs.
    refused(await test.call('GET', `/v1/acls/${acl}`, { token: bob }), 'not_found', 'GET acl');
    refused(await test.call('PUT', `/v1/acls/${acl}`, { token: bob, body: { entries: [] } }), 'not_found', 'PUT acl');
    refused(await test.call('DELETE', `/v1/acls/${acl}`, { token: bob }), 'not_found', 'DELETE acl');
    refused(
      await test.call('POST', '/v1/acls', { token: bob, body: { site_id: siteId, entries: [] } }),
      'invalid_param',
      'POST acl',
    );
    expect((await test.call('GET', `/v1/acls?site_id=${siteId}`, { token: bob })).body.data).toEqual({
      list: [],
      total: 0,
    });
    // Bans and the block log.
    for (const url of [
      '/v1/monitor/site/blackip',
      '/v1/monitor/site/history-blackip',
      `/v1/monitor/site/blackip?site_id=${siteId}`,
    ]) {
      expect((await test.call('GET', url, { token: bob })).body.data, url).toEqual({ list: [], total: 0 });
    }
    expect((await test.call('GET', '/v1/monitor/site/blackip-count', { token: bob })).body.data).toEqual({
      list: [],
      total: 0,
    });
    refused(
      await test.call('POST', '/v1/monitor/site/blackip', {
        token: bob,
        body: { site_id: siteId, cidr: '10.0.0.9', seconds: 60 },
      }),
      'invalid_param',
      'ban on her site',
    );
    for (const ip of ['10.0.0.2', '10.0.0.3']) {
      refused(
        await test.call('DELETE', '/v1/monitor/site/blackip', { token: bob, body: { site_id: siteId, ip } }),
        'invalid_param',
        `lift ${ip}`,
      );
    }
    refused(
      await test.call('GET', `/v1/monitor/site/block-log?site_id=${siteId}`, { token: bob }),
      'invalid_param',
      'block log',
    );
    expect((await test.call('GET', '/v1/monitor/site/block-log', { token: bob })).body.data).toEqual({
      list: [],
      total: 0,
    });

    const after = JSON.stringify(
      await Promise.all(
        ['/v1/cc-matchs', '/v1/cc-filters', '/v1/cc-rules', '/v1/acls', '/v1/monitor/site/blackip'].map(
          async (url) => (await test.call('GET', url, { token: alice })).body.data,
        ),
      ),
    );
    expect(after).toBe(before);
  });
});
