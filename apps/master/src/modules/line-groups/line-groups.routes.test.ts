import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS } from '../../test/databases.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { publishLineGroups } from './publish.ts';

const ZONE = 'lg.rampart.test';
const CNAME_DOMAIN = `cdn.${ZONE}`;

describe.each(DIALECTS)('line groups published to a real PowerDNS on $dialect', (target) => {
  let pdns: PowerDns;
  let test: TestApp;
  let admin: string;
  let alice: string;
  let cnameDomainId: number;
  let defaultLine: number;
  const nodes: number[] = [];

  /** What PowerDNS answers for a name and type, sorted; [] for no records. */
  const ask = async (name: string, type: 'A' | 'AAAA') => {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers([pdns.dnsAddress]);
    try {
      const answer = type === 'A' ? await resolver.resolve4(name) : await resolver.resolve6(name);
      return answer.sort();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
      throw error;
    }
  };
  const secrets = () => secretBox(loadSecretKey(test.database.dataDir, undefined));
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    test.call(method, url, { token: admin, ...(body !== undefined && { body }) });

  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    await saveSetting(test.database.db, 'dnsapi_allow_private', true);
    const api = data(
      await call('POST', '/v1/dnsapis', {
        name: 'pdns',
        provider: 'powerdns',
        credentials: { url: pdns.apiUrl, api_key: pdns.apiKey },
      }),
    ).id;
    cnameDomainId = data(
      await call('POST', '/v1/cname-domains', { domain: CNAME_DOMAIN, is_default: true, dnsapi_id: api, zone: ZONE }),
    ).id;
    const ips = [['192.0.2.10'], ['192.0.2.20', '2001:db8::20'], ['192.0.2.30']];
    for (const nodeIps of ips) {
      const { nodeId } = await acceptedNode(test);
      expect((await call('PUT', `/v1/nodes/${nodeId}`, { ips: nodeIps })).body.code).toBe(0);
      nodes.push(nodeId);
    }
    const lines = data<{ list: { id: number; code: string }[] }>(await call('GET', '/v1/lines')).list;
    defaultLine = lines.find((line) => line.code === 'default')?.id ?? 0;
  });
  afterAll(async () => {
    await test?.close();
    await pdns?.close();
  });

  it('seeds the default line; lines are created, renamed and deleted, one code per provider, admins only', async () => {
    expect(data(await call('GET', `/v1/lines/${defaultLine}`))).toEqual({
      id: defaultLine,
      provider: '',
      code: 'default',
      name_zh: '默认',
      name_en: 'Default',
    });
    const body = { provider: 'dnspod', code: '电信', name_zh: '电信', name_en: 'Telecom' };
    const id = data(await call('POST', '/v1/lines', body)).id;
    expect((await call('POST', '/v1/lines', body)).body).toEqual({
      code: 'conflict',
      msg: 'code: dnspod already has line 电信',
      data: null,
    });
    expect(data(await call('PUT', `/v1/lines/${id}`, { name_en: 'China Telecom' }))).toMatchObject({
      name_en: 'China Telecom',
    });
    expect((await call('DELETE', `/v1/lines/${defaultLine}`)).body).toMatchObject({
      code: 'conflict',
      msg: 'the default line cannot be deleted',
    });
    expect((await call('DELETE', `/v1/lines/${id}`)).body.code).toBe(0);
    expect((await call('GET', `/v1/lines/${id}`)).body).toEqual({
      code: 'not_found',
      msg: `line ${id} does not exist`,
      data: null,
    });
    expect((await test.call('GET', '/v1/lines', { token: alice })).status).toBe(403);
  });

  it('refuses bad line groups naming the field, and leaves a group unchanged by a refused change', async () => {
    const base = { name: 'bad', cname_domain_id: cnameDomainId, host: 'bad1' };
    const refusals: [object, string, string][] = [
      [{ cname_domain_id: 999999 }, 'not_found', 'cname_domain_id: CNAME domain 999999 does not exist'],
      [{ backup_group_id: 999999 }, 'not_found', 'backup_group_id: line group 999999 does not exist'],
      [
        { records: [{ line_id: 999999, ip: '192.0.2.10' }] },
        'not_found',
        'records/0/line_id: line 999999 does not exist',
      ],
      [
        { records: [{ line_id: defaultLine, ip: '198.51.100.1' }] },
        'invalid_param',
        'records/0/ip: 198.51.100.1 is not an IP of any node',
      ],
    ];
    for (const [change, code, msg] of refusals) {
      expect((await call('POST', '/v1/node-groups', { ...base, ...change })).body).toMatchObject({
        code,
        msg,
        data: null,
      });
    }
    const weight = await call('POST', '/v1/node-groups', {
      ...base,
      records: [{ line_id: defaultLine, ip: '192.0.2.10', weight: 101 }],
    });
    expect(weight.body).toMatchObject({ code: 'invalid_param' });
    expect(weight.body.msg).toContain('body/records/0/weight');
    const host = await call('POST', '/v1/node-groups', { ...base, host: 'Bad_Host.' });
    expect(host.body).toMatchObject({ code: 'invalid_param' });
    expect(host.body.msg).toContain('body/host');
    expect((await call('GET', '/v1/node-groups')).body.data).toEqual({ list: [], total: 0 });

    const group = data<{ id: number }>(
      await call('POST', '/v1/node-groups', { ...base, records: [{ line_id: defaultLine, ip: '192.0.2.10' }] }),
    );
    const refused = await call('PUT', `/v1/node-groups/${group.id}`, {
      name: 'renamed',
      records: [
        { line_id: defaultLine, ip: '192.0.2.20' },
        { line_id: defaultLine, ip: '203.0.113.9' },
      ],
    });
    expect(refused.body.msg).toBe('records/1/ip: 203.0.113.9 is not an IP of any node');
    expect(data(await call('GET', `/v1/node-groups/${group.id}`))).toMatchObject({
      name: 'bad',
      records: [{ line_id: defaultLine, ip: '192.0.2.10', weight: 1, backup: false }],
    });
    expect((await call('PUT', `/v1/node-groups/${group.id}`, { backup_group_id: group.id })).body).toMatchObject({
      code: 'invalid_param',
      msg: 'backup_group_id: cannot be the line group itself',
    });
    const twin = await call('POST', '/v1/node-groups', { ...base, name: 'twin' });
    expect(twin.body).toMatchObject({
      code: 'conflict',
      msg: `host: bad1.${CNAME_DOMAIN} is already line group bad's`,
    });
    expect((await call('DELETE', `/v1/node-groups/${group.id}`)).body.code).toBe(0);
    expect((await call('GET', `/v1/node-groups/${group.id}`)).body).toEqual({
      code: 'not_found',
      msg: `line group ${group.id} does not exist`,
      data: null,
    });
    expect((await test.call('POST', '/v1/node-groups', { token: alice, body: base })).status).toBe(403);
  });

  it('publishes the chosen IPs per line; down IPs, maintenance and disabled nodes leave; backups stand in', async () => {
    const fqdn = `lg1.${CNAME_DOMAIN}`;
    const created = data<{ id: number; fqdn: string; publish_error: string }>(
      await call('POST', '/v1/node-groups', {
        name: 'main',
        cname_domain_id: cnameDomainId,
        host: 'lg1',
        records: [
          { line_id: defaultLine, ip: '192.0.2.10', weight: 10 },
          { line_id: defaultLine, ip: '192.0.2.20', weight: 20 },
          { line_id: defaultLine, ip: '2001:db8::20' },
          { line_id: defaultLine, ip: '192.0.2.30', backup: true },
        ],
      }),
    );
    expect(created).toMatchObject({ fqdn, publish_error: '' });
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.10', '192.0.2.20']);
    expect(await ask(fqdn, 'AAAA')).toEqual(['2001:db8::20']);

    // The health checks mark an IP down and publish.
    await test.database.db
      .insertInto('node_ip_states')
      .values({ ip: '192.0.2.10', node_id: nodes[0] ?? 0, state: 'down', changed_at: Date.now() })
      .execute();
    const result = await publishLineGroups(test.database.db, secrets(), test.app.log);
    expect(result.failed).toBe(0);
    expect(result.groups.find((group) => group.id === created.id)?.lines).toEqual([
      { line_id: defaultLine, ips: ['192.0.2.20', '2001:db8::20'], source: 'primary' },
    ]);
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.20']);

    // Maintenance drains the second node: the line has no primary up, the backup answers.
    const drained = await call('PUT', `/v1/nodes/${nodes[1]}`, { maintenance: true });
    expect(drained.body.data).toMatchObject({ maintenance: true });
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.30']);
    expect(await ask(fqdn, 'AAAA')).toEqual([]);
    expect((await call('PUT', `/v1/nodes/${nodes[1]}`, { maintenance: false })).body.code).toBe(0);
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.20']);

    await call('PUT', `/v1/nodes/${nodes[1]}`, { enabled: false });
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.30']);
    await call('PUT', `/v1/nodes/${nodes[1]}`, { enabled: true });
    await test.database.db.deleteFrom('node_ip_states').execute();
    await publishLineGroups(test.database.db, secrets(), test.app.log, [created.id]);
    expect(await ask(fqdn, 'A')).toEqual(['192.0.2.10', '192.0.2.20']);

    // A new host: the old name leaves the DNS; deleting the group removes the new one.
    const moved = await call('PUT', `/v1/node-groups/${created.id}`, { host: 'lg2' });
    expect(moved.body.data).toMatchObject({ fqdn: `lg2.${CNAME_DOMAIN}`, publish_error: '' });
    expect(await ask(fqdn, 'A')).toEqual([]);
    expect(await ask(`lg2.${CNAME_DOMAIN}`, 'A')).toEqual(['192.0.2.10', '192.0.2.20']);
    expect((await call('DELETE', `/v1/node-groups/${created.id}`)).body.code).toBe(0);
    expect(await ask(`lg2.${CNAME_DOMAIN}`, 'A')).toEqual([]);
  });

  it('falls back to the backup line group when a line has nothing up, and says why publishing failed', async () => {
    const backup = data<{ id: number }>(
      await call('POST', '/v1/node-groups', {
        name: 'standby',
        cname_domain_id: cnameDomainId,
        host: 'standby',
        records: [{ line_id: defaultLine, ip: '192.0.2.30' }],
      }),
    );
    const main = data<{ id: number }>(
      await call('POST', '/v1/node-groups', {
        name: 'primary',
        cname_domain_id: cnameDomainId,
        host: 'primary',
        backup_group_id: backup.id,
        records: [{ line_id: defaultLine, ip: '192.0.2.10' }],
      }),
    );
    expect(await ask(`primary.${CNAME_DOMAIN}`, 'A')).toEqual(['192.0.2.10']);
    await call('PUT', `/v1/nodes/${nodes[0]}`, { enabled: false });
    expect(await ask(`primary.${CNAME_DOMAIN}`, 'A')).toEqual(['192.0.2.30']);
    await call('PUT', `/v1/nodes/${nodes[0]}`, { enabled: true });

    // A line of another provider cannot be published through PowerDNS.
    const telecom = data(
      await call('POST', '/v1/lines', { provider: 'alidns', code: 'telecom', name_zh: '电信', name_en: 'Telecom' }),
    ).id;
    const refused = await call('PUT', `/v1/node-groups/${main.id}`, {
      records: [{ line_id: telecom, ip: '192.0.2.10' }],
    });
    expect(refused.body).toEqual({
      code: 'invalid_param',
      msg: 'records/0/line_id: line telecom is a alidns line; the CNAME domain publishes through powerdns',
      data: null,
      params: {
        field: 'records/0/line_id',
        rule: 'line telecom is a alidns line; the CNAME domain publishes through powerdns',
      },
    });
    // The same line is fine where no account is chosen yet: publishing then tells what is wrong.
    const other = data(await call('POST', '/v1/cname-domains', { domain: 'edge.other.test' })).id;
    const unpublished = await call('POST', '/v1/node-groups', {
      name: 'unpublished',
      cname_domain_id: other,
      host: 'x1',
      records: [{ line_id: telecom, ip: '192.0.2.10' }],
    });
    expect(unpublished.body.data).toMatchObject({
      fqdn: 'x1.edge.other.test',
      publish_error: 'CNAME domain edge.other.test has no DNS API account',
    });
  });

  it('points each site’s s<id> name at its line group’s host, the default group’s when it has none', async () => {
    const cname = async (name: string) => {
      const resolver = new Resolver({ timeout: 2000, tries: 2 });
      resolver.setServers([pdns.dnsAddress]);
      return resolver.resolveCname(name).catch(() => []);
    };
    const make = async (name: string, host: string, is_default: boolean) =>
      data(
        await call('POST', '/v1/node-groups', {
          name,
          cname_domain_id: cnameDomainId,
          host,
          is_default,
          records: [{ line_id: defaultLine, ip: '192.0.2.20' }],
        }),
      ).id;
    const edge = await make('edge', 'edge', true);
    const site = data(
      await test.call('POST', '/v1/sites', {
        token: alice,
        body: {
          domains: ['www.lg-site.test'],
          origins: [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }],
        },
      }),
    ).id;
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`edge.${CNAME_DOMAIN}`]);
    // The group's host changes: the site's CNAME follows.
    await call('PUT', `/v1/node-groups/${edge}`, { host: 'edge2' });
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`edge2.${CNAME_DOMAIN}`]);
    // A site that chose another group follows that one; when it is deleted, the default again.
    const vip = await make('vip', 'vip', false);
    const choose = (token: string, line_group_id: number) =>
      test.call('PUT', `/v1/sites/${site}`, { token, body: { line_group_id } });
    expect((await choose(alice, vip)).body).toEqual({
      code: 'forbidden',
      msg: "line_group_id: only an administrator chooses a site's line group",
      data: null,
    });
    expect((await choose(admin, 999999)).body).toEqual({
      code: 'not_found',
      msg: 'line_group_id: line group 999999 does not exist',
      data: null,
    });
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`edge2.${CNAME_DOMAIN}`]);
    expect((await choose(admin, vip)).body.code).toBe(0);
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`vip.${CNAME_DOMAIN}`]);
    const stored = await test.database.db.selectFrom('sites').select(['line_group_id', 'settings']).executeTakeFirst();
    expect(stored?.line_group_id).toBe(vip);
    expect(stored?.settings).not.toContain('line_group_id');
    await call('PUT', `/v1/node-groups/${vip}`, { host: 'vip2' });
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`vip2.${CNAME_DOMAIN}`]);
    await call('DELETE', `/v1/node-groups/${vip}`);
    expect(await cname(`s${site}.${CNAME_DOMAIN}`)).toEqual([`edge2.${CNAME_DOMAIN}`]);
  });
});
