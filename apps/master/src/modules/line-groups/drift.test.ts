import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { acceptedNode, createSite, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

const ZONE = 'drift.rampart.test';
const CNAME_DOMAIN = `cdn.${ZONE}`;
const FQDN = `lg1.${CNAME_DOMAIN}`;
const TTL_PATH = '/v1/configs/global-0-dns-ttl';

interface Drift {
  fqdn: string;
  provider: string;
  sites_checked: number;
  differences: { kind: string; name: string; type: string; expected: unknown; actual: unknown; fields: string[] }[];
  error: string;
}

describe.each(DIALECTS)('the DNS drift check against a real PowerDNS on $dialect', (target) => {
  let pdns: PowerDns;
  let test: TestApp;
  let admin: string;
  let alice: string;
  let groupId: number;
  let siteId: number;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    test.call(method, url, { token: admin, ...(body !== undefined && { body }) });
  /** Changes a record set behind the master's back, with the PowerDNS API. */
  const patchPowerDns = (name: string, type: string, ttl: number, contents: string[]) =>
    pdns.setRecords(ZONE, name, type, contents, ttl);
  /** What PowerDNS holds for a name: type, TTL and contents of each record set. */
  const held = async (name: string) => {
    const response = await fetch(
      `${pdns.apiUrl}/api/v1/servers/localhost/zones/${ZONE}.?rrset_name=${encodeURIComponent(`${name}.`)}`,
      { headers: { 'x-api-key': pdns.apiKey } },
    );
    const zone = (await response.json()) as { rrsets: { type: string; ttl: number; records: { content: string }[] }[] };
    return zone.rrsets
      .map((rrset) => `${rrset.type} ${rrset.ttl} ${rrset.records.map((record) => record.content).sort()}`)
      .sort();
  };
  const drift = async (id = groupId) => data<Drift>(await call('GET', `/v1/node-groups/${id}/drift`));

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
    const domain = data(
      await call('POST', '/v1/cname-domains', { domain: CNAME_DOMAIN, is_default: true, dnsapi_id: api, zone: ZONE }),
    ).id;
    const { nodeId } = await acceptedNode(test);
    expect(
      (await call('PUT', `/v1/nodes/${nodeId}`, { ips: ['192.0.2.10', '192.0.2.20', '2001:db8::20'] })).body.code,
    ).toBe(0);
    const lines = data<{ list: { id: number; code: string }[] }>(await call('GET', '/v1/lines')).list;
    const line_id = lines.find((line) => line.code === 'default')?.id;
    groupId = data(
      await call('POST', '/v1/node-groups', {
        name: 'main',
        cname_domain_id: domain,
        host: 'lg1',
        is_default: true,
        records: [
          { line_id, ip: '192.0.2.10' },
          { line_id, ip: '192.0.2.20' },
          { line_id, ip: '2001:db8::20' },
        ],
      }),
    ).id;
    siteId = await createSite(test, alice, 'www.drift-site.test');
  });
  afterAll(async () => {
    await test?.close();
    await pdns?.close();
  });

  it('finds nothing after publishing; reports records changed behind the master’s back; repair leaves none', async () => {
    expect(await drift()).toMatchObject({
      fqdn: FQDN,
      provider: 'powerdns',
      sites_checked: 1,
      differences: [],
      error: '',
    });
    const site = `s${siteId}.${CNAME_DOMAIN}`;
    await patchPowerDns(FQDN, 'A', 60, ['192.0.2.10', '198.51.100.66']);
    await patchPowerDns(FQDN, 'AAAA', 3600, ['2001:db8::20']);
    await patchPowerDns(site, 'CNAME', 300, ['elsewhere.example.net.']);
    expect((await drift()).differences).toEqual([
      {
        kind: 'missing',
        name: FQDN,
        type: 'A',
        line: '',
        expected: { value: '192.0.2.20', ttl: 60, weight: null },
        actual: null,
        fields: [],
      },
      {
        kind: 'extra',
        name: FQDN,
        type: 'A',
        line: '',
        expected: null,
        actual: { value: '198.51.100.66', ttl: 60, weight: null },
        fields: [],
      },
      {
        kind: 'different',
        name: FQDN,
        type: 'AAAA',
        line: '',
        expected: { value: '2001:db8::20', ttl: 60, weight: null },
        actual: { value: '2001:db8::20', ttl: 3600, weight: null },
        fields: ['ttl'],
      },
      {
        kind: 'different',
        name: site,
        type: 'CNAME',
        line: '',
        expected: { value: FQDN, ttl: 300, weight: null },
        actual: { value: 'elsewhere.example.net', ttl: 300, weight: null },
        fields: ['value'],
      },
    ]);
    const repaired = data<Drift>(await call('POST', `/v1/node-groups/${groupId}/drift/repair`));
    expect(repaired).toMatchObject({ differences: [], error: '' });
    expect(await held(FQDN)).toEqual(['A 60 192.0.2.10,192.0.2.20', 'AAAA 60 2001:db8::20']);
    expect(await held(site)).toEqual([`CNAME 300 ${FQDN}.`]);
    expect((await drift()).differences).toEqual([]);
  });

  it('writes a changed TTL at the next publishing; until then the check shows it, and repairing every group applies it', async () => {
    const ttl = data<object>(await call('PUT', TTL_PATH, { address_ttl: 120, cname_ttl: 900 }));
    expect(ttl).toEqual({ address_ttl: 120, cname_ttl: 900 });
    const pending = await drift();
    expect(pending.differences.map((entry) => `${entry.kind} ${entry.type} ${entry.fields}`)).toEqual([
      'different A ttl',
      'different A ttl',
      'different AAAA ttl',
      'different CNAME ttl',
    ]);
    const all = data<{ list: Drift[]; total: number }>(await call('POST', '/v1/node-groups/drift/repair'));
    expect(all.list.map((entry) => [entry.fqdn, entry.differences, entry.error])).toEqual([[FQDN, [], '']]);
    expect(await held(FQDN)).toEqual(['A 120 192.0.2.10,192.0.2.20', 'AAAA 120 2001:db8::20']);
    expect(await held(`s${siteId}.${CNAME_DOMAIN}`)).toEqual([`CNAME 900 ${FQDN}.`]);
    // A group's edit publishes it, with the TTL of the moment.
    await call('PUT', TTL_PATH, { address_ttl: 30, cname_ttl: 900 });
    await call('PUT', `/v1/node-groups/${groupId}`, { name: 'main (renamed)' });
    expect(await held(FQDN)).toEqual(['A 30 192.0.2.10,192.0.2.20', 'AAAA 30 2001:db8::20']);
    expect(data<{ list: Drift[] }>(await call('GET', '/v1/node-groups/drift')).list).toEqual([
      expect.objectContaining({ fqdn: FQDN, differences: [], error: '' }),
    ]);
    expect(data<object>(await call('DELETE', TTL_PATH))).toEqual({ address_ttl: 60, cname_ttl: 300 });
    expect(data<{ list: Drift[] }>(await call('POST', '/v1/node-groups/drift/repair')).list).toEqual([
      expect.objectContaining({ differences: [], error: '' }),
    ]);
  });

  it('the scheduled DNS check tells the admins of a group whose records differ, and nothing once repaired', async () => {
    const runCheck = async () => {
      const run = await call('POST', '/v1/tasks/scheduled/dns-drift/run');
      expect(run.body.code, run.body.msg).toBe(0);
      await expect
        .poll(async () => {
          const list = data<{ list: { name: string; running: boolean; last_result: string | null }[] }>(
            await call('GET', '/v1/tasks/scheduled'),
          ).list;
          const task = list.find((entry) => entry.name === 'dns-drift');
          return task && !task.running ? task.last_result : 'running';
        })
        .toBe('ok');
    };
    const told = () =>
      test.database.db.selectFrom('messages').select(['title', 'body']).where('type', '=', 'node_failover').execute();
    await runCheck();
    expect(await told()).toEqual([]);
    await patchPowerDns(FQDN, 'A', 60, ['192.0.2.10']);
    await runCheck();
    const messages = await told();
    expect(messages.map((message) => message.title)).toEqual(['DNS of 1 line group(s) differs from their settings']);
    expect(messages[0]?.body).toContain(`(${FQDN}): 1 missing, 0 extra, 0 different`);
    expect(data<Drift>(await call('POST', `/v1/node-groups/${groupId}/drift/repair`)).differences).toEqual([]);
    await runCheck();
    expect(await told()).toHaveLength(1);
  });

  it('refuses bad TTLs naming the field, unknown groups and ordinary users; a group with no host says why', async () => {
    for (const [body, field] of [
      [{ address_ttl: 0, cname_ttl: 300 }, 'address_ttl'],
      [{ address_ttl: 60, cname_ttl: 86401 }, 'cname_ttl'],
      [{ address_ttl: 1.5, cname_ttl: 300 }, 'address_ttl'],
      [{ address_ttl: 60, cname_ttl: 300, ttl: 60 }, 'ttl'],
      [{ address_ttl: 60 }, 'cname_ttl'],
    ] as const) {
      const refused = await call('PUT', TTL_PATH, body);
      expect(refused.body).toMatchObject({ code: 'invalid_param', data: null });
      expect(refused.body.msg).toContain(field);
    }
    expect(data<object>(await call('GET', TTL_PATH))).toEqual({ address_ttl: 60, cname_ttl: 300 });
    for (const [method, url] of [
      ['GET', '/v1/node-groups/999999/drift'],
      ['POST', '/v1/node-groups/999999/drift/repair'],
    ] as const) {
      expect((await call(method, url)).body).toEqual({
        code: 'not_found',
        msg: 'line group 999999 does not exist',
        data: null,
      });
    }
    for (const [method, url] of [
      ['GET', `/v1/node-groups/${groupId}/drift`],
      ['POST', `/v1/node-groups/${groupId}/drift/repair`],
      ['GET', '/v1/node-groups/drift'],
      ['POST', '/v1/node-groups/drift/repair'],
      ['GET', TTL_PATH],
      ['PUT', TTL_PATH],
    ] as const) {
      const refused = await test.call(method, url, {
        token: alice,
        ...(method === 'PUT' && { body: { address_ttl: 60, cname_ttl: 300 } }),
      });
      expect(refused.status, `${method} ${url}`).toBe(403);
    }
    const bare = data(await call('POST', '/v1/node-groups', { name: 'unpublished' })).id;
    expect(await drift(bare)).toMatchObject({
      fqdn: '',
      differences: [],
      error: 'the line group has no CNAME domain or host, so nothing of it is published',
    });
  });
});
