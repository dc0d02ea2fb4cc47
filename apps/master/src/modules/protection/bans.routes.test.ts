import type { Ban } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, createSite, data, type EdgeNode, logLine, shipLogs, userGroup } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

type Page = { list: Ban[]; total: number };

describe.each(DIALECTS)('bans on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  let siteId: number;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    siteId = await createSite(test, alice, 'ban.example.com');
  });
  afterEach(async () => {
    await test.close();
  });

  const current = async (token: string, query = '') =>
    data<Page>(await test.call('GET', `/v1/monitor/site/blackip${query}`, { token }));
  const history = async (token: string, query = '') =>
    data<Page>(await test.call('GET', `/v1/monitor/site/history-blackip${query}`, { token }));

  it('bans by hand at once, renews a running ban, lifts it, and keeps it in the history', async () => {
    const before = await currentConfigVersion(test.database.db);
    const body = { site_id: siteId, cidr: '2001:DB8::/48', seconds: 600, reason: 'scraping' };
    const ban = data<Ban>(await test.call('POST', '/v1/monitor/site/blackip', { token: alice, body }));
    expect(ban).toMatchObject({
      source: 'manual',
      site_id: siteId,
      cidr: '2001:db8::/48',
      reason: 'scraping',
      lifted_at: null,
    });
    expect(Date.parse(ban.expires_at) - Date.parse(ban.created_at)).toBe(600_000);
    expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
    const renewed = data<Ban>(
      await test.call('POST', '/v1/monitor/site/blackip', {
        token: alice,
        body: { ...body, seconds: 3600, reason: 'again' },
      }),
    );
    expect(renewed).toMatchObject({ id: ban.id, reason: 'again' });
    expect((await current(alice)).total).toBe(1);
    expect((await current(alice, `?site_id=${siteId}&ip=2001:db8::/48`)).total).toBe(1);
    const lifted = await test.call('DELETE', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: siteId, ip: '2001:db8::/48' },
    });
    expect(lifted.body.code).toBe(0);
    expect(await currentConfigVersion(test.database.db)).toBe(before + 3);
    expect((await current(alice)).total).toBe(0);
    expect((await history(alice)).list).toMatchObject([{ id: ban.id, lifted_at: expect.any(String) }]);
    const again = await test.call('DELETE', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: siteId, ip: '2001:db8::/48' },
    });
    expect(again.body).toMatchObject({ code: 'not_found', msg: `2001:db8::/48 is not banned on site ${siteId}` });
  });

  it('moves bans whose time ran out to the history', async () => {
    const ban = data<Ban>(
      await test.call('POST', '/v1/monitor/site/blackip', {
        token: alice,
        body: { site_id: siteId, cidr: '10.0.0.1', seconds: 60 },
      }),
    );
    await test.database.db
      .updateTable('bans')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', ban.id)
      .execute();
    expect((await current(alice)).total).toBe(0);
    expect((await history(alice)).list).toMatchObject([{ id: ban.id, lifted_at: null }]);
  });

  it('bans on every site for admins only', async () => {
    const global = { site_id: 0, cidr: '192.0.2.0/24', seconds: 60 };
    const refused = await test.call('POST', '/v1/monitor/site/blackip', { token: alice, body: global });
    expect(refused.body).toMatchObject({ code: 'forbidden', msg: 'site_id: only an administrator bans on every site' });
    expect((await test.call('POST', '/v1/monitor/site/blackip', { token: admin, body: global })).body.code).toBe(0);
    expect((await current(admin)).list).toMatchObject([{ site_id: 0, cidr: '192.0.2.0/24' }]);
    expect((await current(alice)).total).toBe(0);
    const lift = await test.call('DELETE', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: 0, ip: '192.0.2.0/24' },
    });
    expect(lift.body.code).toBe('forbidden');
  });

  describe('edge bans', () => {
    let node: EdgeNode;
    beforeEach(async () => {
      node = await acceptedNode(test);
    });

    it('are seen in block logs with their ban time, stored once, counted per site, and lifted into an unban', async () => {
      const { id: group, matchId, filterId } = await userGroup(test, alice, 'shop', 'ban');
      const now = Math.floor(Date.now() / 1000);
      const reason = `kind=rate;action=ban;group=${group};match=${matchId};filter=${filterId}`;
      const lines = [
        logLine({
          site_id: siteId,
          client_ip: '198.51.100.7',
          time: now,
          status: 403,
          block_reason: `${reason};detail=120 requests in 60 s, banned 900 s`,
        }),
        // Without the time in the detail, the rule's ban_seconds (300) applies.
        logLine({ site_id: siteId, client_ip: '198.51.100.8', time: now, status: 403, block_reason: reason }),
        logLine({
          site_id: siteId,
          client_ip: '198.51.100.9',
          time: now,
          status: 403,
          block_reason: 'kind=ban;action=banned',
        }),
        logLine({ site_id: siteId, client_ip: '198.51.100.10', time: now }),
      ];
      await shipLogs(test, node, 1, lines);
      await shipLogs(test, node, 1, lines);
      const bans = await current(alice);
      expect(bans.total).toBe(2);
      const byIp = new Map(bans.list.map((ban) => [ban.cidr, ban]));
      expect(byIp.get('198.51.100.7')).toMatchObject({
        source: 'edge',
        node_id: node.nodeId,
        group_id: group,
        match_id: matchId,
        filter_id: filterId,
        reason: '120 requests in 60 s, banned 900 s',
        created_at: new Date(now * 1000).toISOString(),
        expires_at: new Date((now + 900) * 1000).toISOString(),
      });
      expect(byIp.get('198.51.100.8')?.expires_at).toBe(new Date((now + 300) * 1000).toISOString());
      await test.call('POST', '/v1/monitor/site/blackip', {
        token: alice,
        body: { site_id: siteId, cidr: '198.51.100.7', seconds: 60 },
      });
      const counts = await test.call('GET', '/v1/monitor/site/blackip-count', { token: alice });
      expect(counts.body.data).toEqual({ list: [{ site_id: siteId, count: 2 }], total: 1 });

      const before = await currentConfigVersion(test.database.db);
      await test.call('DELETE', '/v1/monitor/site/blackip', {
        token: alice,
        body: { site_id: siteId, ip: '198.51.100.7' },
      });
      expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
      expect((await current(alice)).list.map((ban) => ban.cidr)).toEqual(['198.51.100.8']);
      expect((await history(alice)).total).toBe(2);
      // The same batch again changes nothing: the lifted ban stays lifted.
      await shipLogs(test, node, 1, lines);
      expect((await current(alice)).total).toBe(1);
    });

    it('are only their site owner’s', async () => {
      const bob = await addUser(test, 'bob');
      await shipLogs(test, node, 1, [
        logLine({
          site_id: siteId,
          client_ip: '198.51.100.7',
          block_reason: 'kind=rate;action=ban;detail=banned 60 s',
        }),
      ]);
      expect((await current(alice)).total).toBe(1);
      expect((await current(bob)).total).toBe(0);
      expect((await test.call('GET', '/v1/monitor/site/blackip-count', { token: bob })).body.data).toEqual({
        list: [],
        total: 0,
      });
      const lift = await test.call('DELETE', '/v1/monitor/site/blackip', {
        token: bob,
        body: { site_id: siteId, ip: '198.51.100.7' },
      });
      expect(lift.body).toMatchObject({ code: 'invalid_param', msg: `site_id: site ${siteId} does not exist` });
      expect((await current(admin)).total).toBe(1);
    });
  });
});
