import type { FleetDocument, FleetPackage, ImportPlan } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { insertUser } from '../users/users.repository.ts';

const WAF = 'global-0-waf-defaults';
const MONITOR = 'global-0-node-monitor';

describe.each(DIALECTS)('the fleet document on $dialect', (target) => {
  let test: TestApp;
  let admin: string;

  const exportFleet = async (token: string, query = '') => {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/export/fleet${query}`,
      headers: { 'access-token': token },
    });
    return { status: response.statusCode, text: response.body };
  };
  const importFleet = (token: string, document: unknown, dryRun = false) =>
    test.call('POST', '/v1/import/fleet', { token, body: { document, dry_run: dryRun } });
  const fleet = async () =>
    parse((await exportFleet(admin)).text) as FleetDocument & { configs: Record<string, unknown> };

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: 'Basic', price_month: 1000, max_sites: 5, max_domains: 5, on_sale: true },
      }),
    );
  });
  afterAll(() => test.close());

  it('exports the settings by key and plans no change for its own export', async () => {
    const exported = await exportFleet(admin);
    expect(exported.status).toBe(200);
    const document = parse(exported.text) as FleetDocument;
    expect(document).toMatchObject({ version: 1, kind: 'rampart/fleet' });
    expect(Object.keys(document.configs ?? {})).toEqual(expect.arrayContaining([WAF, MONITOR]));
    // The system settings (mail and SMS secrets among them) stay with /sys/setting.
    expect(Object.keys(document.configs ?? {}).filter((key) => key.includes('-system-'))).toEqual([]);
    const version = await currentConfigVersion(test.database.db);
    expect(data<ImportPlan>(await importFleet(admin, exported.text))).toEqual({
      changes: [],
      applied: false,
      config_version: null,
    });
    const json = await exportFleet(admin, '?format=json');
    expect(JSON.parse(json.text)).toEqual(document);
    expect(await currentConfigVersion(test.database.db)).toBe(version);
  });

  it('applies an edit field by field in one config version', async () => {
    const document = await fleet();
    const waf = document.configs[WAF] as { paranoia: number };
    const before = waf.paranoia;
    waf.paranoia = before === 2 ? 3 : 2;
    const text = stringify(document);
    const planned = data<ImportPlan>(await importFleet(admin, text, true));
    expect(planned.changes).toEqual([
      { action: 'update', kind: 'config', name: WAF, fields: [{ path: 'paranoia', from: before, to: waf.paranoia }] },
    ]);
    expect(((await fleet()).configs[WAF] as { paranoia: number }).paranoia).toBe(before);

    const version = await currentConfigVersion(test.database.db);
    expect(data<ImportPlan>(await importFleet(admin, text))).toMatchObject({
      applied: true,
      config_version: version + 1,
    });
    const saved = data<{ paranoia: number }>(await test.call('GET', `/v1/configs/${WAF}`, { token: admin }));
    expect(saved.paranoia).toBe(waf.paranoia);
    expect((await importFleet(admin, text, true)).body.data).toMatchObject({ changes: [] });
  });

  it('changes nothing for an invalid document and names the field', async () => {
    const text = (await exportFleet(admin)).text;
    const cases: [(document: FleetDocument & { configs: Record<string, Record<string, unknown>> }) => void, string][] =
      [
        [
          (document) => {
            Object.assign(document.configs[WAF] ?? {}, { paranoia: 9 });
          },
          `configs.${WAF}.paranoia: must be <= 4`,
        ],
        [
          (document) => {
            Object.assign(document.configs[MONITOR] ?? {}, { interval_seconds: 10, timeout_seconds: 20 });
          },
          `configs.${MONITOR}.timeout_seconds: at most interval_seconds (10): a probe must end before the next one starts`,
        ],
        [
          (document) => {
            document.configs['global-0-nothing-here'] = {};
          },
          'configs.global-0-nothing-here: is not a fleet setting you may change',
        ],
      ];
    for (const [edit, message] of cases) {
      const document = parse(text) as FleetDocument & { configs: Record<string, Record<string, unknown>> };
      // A valid change beside the invalid one is not made either.
      const waf = document.configs[WAF] as { paranoia: number };
      waf.paranoia = waf.paranoia === 1 ? 4 : 1;
      edit(document);
      const refused = await importFleet(admin, document);
      expect([refused.status, refused.body.msg]).toEqual([400, message]);
      expect((await exportFleet(admin)).text).toBe(text);
    }
  });

  it('plans and applies the catalogue by name, field by field, and refuses a package the service refuses', async () => {
    const document = (await fleet()) as FleetDocument & { packages: FleetPackage[] };
    expect(document.packages).toEqual([
      expect.objectContaining({ name: 'Basic', max_sites: 5, group: null, line_group: null, cc_rule_groups: [] }),
    ]);
    const basic = document.packages[0];
    if (!basic) throw new Error('no package exported');
    basic.max_sites = 10;
    document.packages.push({ name: 'Pro', price_year: 90_000, max_sites: 50, on_sale: true });
    const applied = data<ImportPlan>(await importFleet(admin, document));
    expect(applied.changes).toEqual([
      { action: 'update', kind: 'package', name: 'Basic', fields: [{ path: 'max_sites', from: 5, to: 10 }] },
      { action: 'create', kind: 'package', name: 'Pro' },
    ]);
    const listed = data<{ list: { name: string; max_sites: number }[] }>(
      await test.call('GET', '/v1/packages', { token: admin }),
    );
    expect(listed.list.map(({ name, max_sites }) => [name, max_sites]).sort()).toEqual([
      ['Basic', 10],
      ['Pro', 50],
    ]);
    const text = (await exportFleet(admin)).text;
    expect((await importFleet(admin, text, true)).body.data).toMatchObject({ changes: [] });

    const refused = parse(text) as FleetDocument & { packages: FleetPackage[] };
    refused.packages = refused.packages.filter((item) => item.name !== 'Pro');
    refused.packages.push({ name: 'Free', on_sale: true });
    const answer = await importFleet(admin, refused);
    expect([answer.status, answer.body.msg]).toEqual([
      400,
      'packages[1].price_month: a package on sale needs a price for at least one term (month, quarter or year)',
    ]);
    expect((await exportFleet(admin)).text).toBe(text);
  });

  it('is for administrators holding admin:sys only', async () => {
    const customer = await addUser(test, 'carol');
    await insertUser(
      test.database.db,
      { username: 'ops', passwordHash: await hashPassword('ops-pass'), type: 1, access: ['admin:node'] },
      Date.now(),
    );
    const ops = await test.login('ops', 'ops-pass');
    for (const token of [customer, ops]) {
      expect((await exportFleet(token)).status).toBe(403);
      expect((await importFleet(token, { version: 1, kind: 'rampart/fleet' }, true)).status).toBe(403);
    }
    // admin:sys without admin:package: the settings, not the catalogue.
    await insertUser(
      test.database.db,
      { username: 'sys', passwordHash: await hashPassword('sys-pass'), type: 1, access: ['admin:sys'] },
      Date.now(),
    );
    const sys = await test.login('sys', 'sys-pass');
    const document = parse((await exportFleet(sys)).text) as FleetDocument;
    expect(document.packages).toBeUndefined();
    const refused = await importFleet(sys, { ...document, packages: [] }, true);
    expect([refused.status, refused.body.msg]).toEqual([403, 'packages: this needs the admin:package permission']);
  });
});
