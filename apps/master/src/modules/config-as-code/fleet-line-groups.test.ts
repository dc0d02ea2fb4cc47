import { Resolver } from 'node:dns/promises';
import type { FleetDocument, FleetLineGroup, ImportPlan } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DIALECTS } from '../../test/databases.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { insertUser } from '../users/users.repository.ts';

const ZONE = 'fleet.rampart.test';
const CNAME_DOMAIN = `cdn.${ZONE}`;

type Fleet = FleetDocument & { line_groups: FleetLineGroup[] };

describe.each(DIALECTS)('line groups in the fleet document on $dialect', (target) => {
  let pdns: PowerDns;
  let test: TestApp;
  let admin: string;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    test.call(method, url, { token: admin, ...(body !== undefined && { body }) });
  const exportText = async (token = admin) => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/export/fleet',
      headers: { 'access-token': token },
    });
    return { status: response.statusCode, text: response.body };
  };
  const fleet = async () => parse((await exportText()).text) as Fleet;
  const importFleet = (document: unknown, dryRun = false, token = admin) =>
    test.call('POST', '/v1/import/fleet', { token, body: { document, dry_run: dryRun } });
  /** The A records PowerDNS answers for a host under the CNAME domain, sorted; [] for none. */
  const answers = async (host: string) => {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers([pdns.dnsAddress]);
    try {
      return (await resolver.resolve4(`${host}.${CNAME_DOMAIN}`)).sort();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
      throw error;
    }
  };
  const groupOf = (document: Fleet, name: string) => {
    const group = document.line_groups.find((each) => each.name === name);
    if (!group) throw new Error(`line group ${name} not exported`);
    return group;
  };

  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
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
    const nodes: [string, string[]][] = [
      ['edge-a', ['192.0.2.10']],
      ['edge-b', ['192.0.2.20', '192.0.2.21']],
      ['edge-c', ['192.0.2.30']],
      ['twin', ['192.0.2.40']],
      ['twin', ['192.0.2.41']],
    ];
    for (const [name, ips] of nodes) {
      const { nodeId } = await acceptedNode(test);
      expect((await call('PUT', `/v1/nodes/${nodeId}`, { name, ips })).body.code).toBe(0);
    }
    const lines = data<{ list: { id: number; code: string }[] }>(await call('GET', '/v1/lines')).list;
    const defaultLine = lines.find((line) => line.code === 'default')?.id ?? 0;
    // Two providers' lines share the code telecom: the document names the provider of each.
    const telecom = data(
      await call('POST', '/v1/lines', { provider: 'dnspod', code: 'telecom', name_zh: '电信', name_en: 'Telecom' }),
    ).id;
    data(await call('POST', '/v1/lines', { provider: 'alidns', code: 'telecom', name_zh: '电信', name_en: 'Telecom' }));
    data(await call('POST', '/v1/lines', { provider: '', code: 'overseas', name_zh: '境外', name_en: 'Overseas' }));
    const spare = data(
      await call('POST', '/v1/node-groups', { name: 'Spare', records: [{ line_id: telecom, ip: '192.0.2.30' }] }),
    ).id;
    data(
      await call('POST', '/v1/node-groups', {
        name: 'Main',
        cname_domain_id: domain,
        host: 'lg1',
        backup_group_id: spare,
        is_default: true,
        records: [
          { line_id: defaultLine, ip: '192.0.2.20', weight: 5 },
          { line_id: defaultLine, ip: '192.0.2.10' },
        ],
      }),
    );
    data(await call('POST', '/v1/node-groups', { name: 'Old' }));
    expect(await answers('lg1')).toEqual(['192.0.2.10', '192.0.2.20']);
  });
  afterAll(async () => {
    await test?.close();
    await pdns?.close();
  });

  it('exports line groups by name with their lines, nodes and CNAME domain by name, and plans no change for its own export', async () => {
    const exported = await exportText();
    expect(exported.status).toBe(200);
    const document = parse(exported.text) as Fleet;
    expect(document.line_groups).toEqual([
      {
        name: 'Main',
        cname_domain: CNAME_DOMAIN,
        host: 'lg1',
        backup_group: 'Spare',
        is_default: true,
        lines: [
          { line: 'default', node: 'edge-a', ip: '192.0.2.10', weight: 1, backup: false },
          { line: 'default', node: 'edge-b', ip: '192.0.2.20', weight: 5, backup: false },
        ],
      },
      { name: 'Old', cname_domain: null, host: '', backup_group: null, is_default: false, lines: [] },
      {
        name: 'Spare',
        cname_domain: null,
        host: '',
        backup_group: null,
        is_default: false,
        lines: [{ line: 'telecom', provider: 'dnspod', node: 'edge-c', ip: '192.0.2.30', weight: 1, backup: false }],
      },
    ]);
    const version = await currentConfigVersion(test.database.db);
    expect(data<ImportPlan>(await importFleet(exported.text))).toEqual({
      changes: [],
      applied: false,
      config_version: null,
    });
    // Defaults left out and lines in another order are the same group.
    const main = groupOf(document, 'Main');
    main.lines = [
      { line: 'default', node: 'edge-b', ip: '192.0.2.20', weight: 5 },
      { line: 'default', node: 'edge-a', ip: '192.0.2.10' },
    ];
    expect(data<ImportPlan>(await importFleet(document, true)).changes).toEqual([]);
    expect(await currentConfigVersion(test.database.db)).toBe(version);
  });

  it('plans and applies a changed record value, then publishes it to the DNS after the commit', async () => {
    const document = await fleet();
    const record = groupOf(document, 'Main').lines?.[1];
    if (!record) throw new Error('no second record');
    record.ip = '192.0.2.21';
    const planned = data<ImportPlan>(await importFleet(document, true));
    const change = {
      action: 'update',
      kind: 'line_group',
      name: 'Main',
      fields: [{ path: 'lines[1].ip', from: '192.0.2.20', to: '192.0.2.21' }],
    };
    expect(planned).toEqual({ changes: [change], applied: false, config_version: null });
    expect(await answers('lg1')).toEqual(['192.0.2.10', '192.0.2.20']);

    const version = await currentConfigVersion(test.database.db);
    expect(data<ImportPlan>(await importFleet(document))).toEqual({
      changes: [change],
      applied: true,
      config_version: version + 1,
    });
    expect(await answers('lg1')).toEqual(['192.0.2.10', '192.0.2.21']);
    expect(groupOf(await fleet(), 'Main').lines?.[1]).toEqual({
      line: 'default',
      node: 'edge-b',
      ip: '192.0.2.21',
      weight: 5,
      backup: false,
    });
  });

  it('creates, extends and deletes groups by name, a new group backing up another of the document', async () => {
    const document = await fleet();
    document.line_groups = document.line_groups.filter((group) => group.name !== 'Old');
    groupOf(document, 'Spare').lines?.push({ line: 'overseas', node: 'edge-a', ip: '192.0.2.10' });
    groupOf(document, 'Main').backup_group = 'Backup';
    document.line_groups.push({
      name: 'Backup',
      cname_domain: CNAME_DOMAIN,
      host: 'lg2',
      lines: [{ line: 'default', node: 'edge-c', ip: '192.0.2.30' }],
    });
    // A package of the same document may name a line group it creates.
    document.packages = [{ name: 'Edge', line_group: 'Backup', on_sale: false }];
    const spareBefore = groupOf(await fleet(), 'Spare').lines;
    const applied = data<ImportPlan>(await importFleet(document));
    expect(applied.changes).toEqual([
      {
        action: 'update',
        kind: 'line_group',
        name: 'Main',
        fields: [{ path: 'backup_group', from: 'Spare', to: 'Backup' }],
      },
      {
        action: 'update',
        kind: 'line_group',
        name: 'Spare',
        fields: [
          {
            path: 'lines',
            from: spareBefore,
            to: [
              { line: 'overseas', node: 'edge-a', ip: '192.0.2.10', weight: 1, backup: false },
              ...(spareBefore ?? []),
            ],
          },
        ],
      },
      { action: 'create', kind: 'line_group', name: 'Backup' },
      { action: 'delete', kind: 'line_group', name: 'Old' },
      { action: 'create', kind: 'package', name: 'Edge' },
    ]);
    expect(applied.applied).toBe(true);
    const after = await fleet();
    expect(after.line_groups.map((group) => [group.name, group.backup_group, group.lines?.length])).toEqual([
      ['Backup', null, 1],
      ['Main', 'Backup', 2],
      ['Spare', null, 2],
    ]);
    expect(await answers('lg2')).toEqual(['192.0.2.30']);
    const backupId = data<{ list: { id: number; name: string }[] }>(await call('GET', '/v1/node-groups')).list.find(
      (group) => group.name === 'Backup',
    )?.id;
    const packages = data<{ list: { name: string; line_group_id: number | null }[] }>(
      await call('GET', '/v1/packages'),
    );
    expect(packages.list.map(({ name, line_group_id }) => [name, line_group_id])).toEqual([['Edge', backupId]]);
    expect(data<ImportPlan>(await importFleet(after, true)).changes).toEqual([]);
  });

  it('changes nothing for an invalid line group and names the field', async () => {
    const text = (await exportText()).text;
    const cases: [(document: Fleet) => void, string][] = [
      [
        (document) => {
          Object.assign(document.line_groups[1]?.lines?.[1] ?? {}, { ip: '192.0.2.300' });
        },
        'line_groups[1].lines[1].ip: must be an IPv4 or IPv6 address',
      ],
      [
        (document) => {
          Object.assign(document.line_groups[1]?.lines?.[1] ?? {}, { node: 'edge-z' });
        },
        'line_groups[1].lines[1].node: node "edge-z" does not exist',
      ],
      [
        (document) => {
          Object.assign(document.line_groups[1]?.lines?.[1] ?? {}, { node: 'edge-c' });
        },
        'line_groups[1].lines[1].ip: 192.0.2.21 is not an IP of node edge-c',
      ],
      [
        (document) => {
          Object.assign(document.line_groups[1]?.lines?.[1] ?? {}, { node: 'twin', ip: '192.0.2.40' });
        },
        'line_groups[1].lines[1].node: 2 nodes are named "twin"; rename all but one',
      ],
      [
        (document) => {
          document.line_groups[1]?.lines?.push({ line: 'telecom', node: 'edge-a', ip: '192.0.2.10' });
        },
        'line_groups[1].lines[2].provider: names which of the lines "telecom" (alidns, dnspod) is meant',
      ],
      [
        (document) => {
          document.line_groups[1]?.lines?.push({ line: 'default', node: 'edge-a', ip: '192.0.2.10' });
        },
        'line_groups[1].lines[2].ip: 192.0.2.10 is on line default twice',
      ],
      [
        (document) => {
          Object.assign(document.line_groups[1] ?? {}, { backup_group: 'Old' });
        },
        'line_groups[1].backup_group: line group "Old" is not one of line_groups',
      ],
      [
        (document) => {
          Object.assign(document.line_groups[2] ?? {}, { is_default: true });
        },
        'line_groups[2].is_default: only one line group is the default (line_groups[1] is)',
      ],
    ];
    for (const [edit, message] of cases) {
      const document = parse(text) as Fleet;
      expect(document.line_groups[1]?.name).toBe('Main');
      // A valid change beside the invalid one is not made either.
      Object.assign(document.line_groups[0] ?? {}, { host: 'lg3' });
      edit(document);
      const refused = await importFleet(document);
      expect([refused.status, refused.body.msg]).toEqual([400, message]);
      expect((await exportText()).text).toBe(text);
    }
    expect(await answers('lg3')).toEqual([]);
  });

  it('is for administrators holding admin:node as well as admin:sys', async () => {
    const access: [string, string[]][] = [
      ['sys', ['admin:sys']],
      ['sysnode', ['admin:sys', 'admin:node']],
    ];
    for (const [username, codes] of access) {
      await insertUser(
        test.database.db,
        { username, passwordHash: await hashPassword(`${username}-pass`), type: 1, access: codes },
        Date.now(),
      );
    }
    const sys = await test.login('sys', 'sys-pass');
    const document = parse((await exportText(sys)).text) as FleetDocument;
    expect(document.line_groups).toBeUndefined();
    const refused = await importFleet({ ...document, line_groups: [] }, true, sys);
    expect([refused.status, refused.body.msg]).toEqual([403, 'line_groups: this needs the admin:node permission']);
    expect((await fleet()).line_groups).toHaveLength(3);

    const sysNode = await test.login('sysnode', 'sysnode-pass');
    const full = parse((await exportText(sysNode)).text) as Fleet;
    expect(full.line_groups.map((group) => group.name)).toEqual(['Backup', 'Main', 'Spare']);
    expect(data<ImportPlan>(await importFleet(full, true, sysNode)).changes).toEqual([]);
    expect(document.dns_lines).toBeUndefined();
    const lines = await importFleet({ ...document, dns_lines: [] }, true, sys);
    expect([lines.status, lines.body.msg]).toEqual([403, 'dns_lines: this needs the admin:node permission']);
  });

  it('keeps the DNS line catalogue by code: a line added and named by a group in one document, one no group names deleted', async () => {
    const document = await fleet();
    expect(document.dns_lines).toEqual([
      { provider: '', code: 'default', name_zh: expect.any(String), name_en: expect.any(String) },
      { provider: '', code: 'overseas', name_zh: '境外', name_en: 'Overseas' },
      { provider: 'alidns', code: 'telecom', name_zh: '电信', name_en: 'Telecom' },
      { provider: 'dnspod', code: 'telecom', name_zh: '电信', name_en: 'Telecom' },
    ]);
    const catalogue = document.dns_lines ?? [];
    // A line in use by a group cannot go: nothing changes, and the refusal names the line.
    const inUse = { ...document, dns_lines: catalogue.filter((line) => line.code !== 'overseas') };
    const refused = await importFleet(inUse);
    expect([refused.status, refused.body.msg]).toEqual([
      409,
      'dns_lines.overseas: line overseas is used by line group Spare',
    ]);

    const edited = await fleet();
    edited.dns_lines = [
      ...catalogue.filter((line) => line.provider !== 'alidns'),
      { provider: '', code: 'unicom', name_zh: '联通', name_en: 'Unicom' },
    ];
    groupOf(edited, 'Backup').lines?.push({ line: 'unicom', node: 'edge-c', ip: '192.0.2.30' });
    const applied = data<ImportPlan>(await importFleet(edited));
    expect(applied.changes.map(({ action, kind, name }) => [action, kind, name])).toEqual([
      ['create', 'dns_line', 'unicom'],
      ['delete', 'dns_line', 'alidns/telecom'],
      ['update', 'line_group', 'Backup'],
    ]);
    const after = await fleet();
    expect(after.dns_lines?.map((line) => line.code)).toEqual(['default', 'overseas', 'unicom', 'telecom']);
    // Only dnspod has telecom now: the document need not name the provider (as the export no longer does).
    expect(groupOf(after, 'Spare').lines?.map((line) => [line.line, line.provider])).toContainEqual([
      'telecom',
      undefined,
    ]);
    expect(groupOf(after, 'Backup').lines?.map((line) => line.line)).toContain('unicom');
    expect(data<ImportPlan>(await importFleet(after, true)).changes).toEqual([]);
  });
});
