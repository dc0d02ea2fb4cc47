import type { CustomerDocument, ImportPlan, Site } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DIALECTS } from '../../test/databases.ts';
import { createFilter, createGroup, createMatch, data, ORIGIN, pathMatch, rateFilter } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

describe.each(DIALECTS)('configuration as code on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;

  /** GET /v1/export as text. */
  const exported = async (token: string, query = '', headers: Record<string, string> = {}) => {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/export${query}`,
      headers: { 'access-token': token, ...headers },
    });
    return { status: response.statusCode, type: String(response.headers['content-type']), text: response.body };
  };
  const exportYaml = async (token: string) => {
    const answer = await exported(token);
    expect(answer.status, answer.text).toBe(200);
    return answer.text;
  };
  const importing = (token: string, document: unknown, dryRun = false) =>
    test.call('POST', '/v1/import', { token, body: { document, dry_run: dryRun } });
  const plan = async (token: string, document: unknown) => data<ImportPlan>(await importing(token, document, true));

  /** A site group, a site in it with a cache rule, its ACL and rule group, a stream and user configs. */
  async function seed(token: string, prefix: string) {
    const siteGroup = data(await test.call('POST', '/v1/site-groups', { token, body: { name: 'web' } })).id;
    const matchId = await createMatch(test, token, pathMatch('login'));
    const filterId = await createFilter(test, token, rateFilter('slow'));
    const ruleGroup = await createGroup(test, token, {
      name: 'guard',
      rules: [{ match_id: matchId, filter_id: filterId, action: 'block' }],
    });
    const site = data<Site>(
      await test.call('POST', '/v1/sites', {
        token,
        body: {
          domains: [`${prefix}.example.test`],
          origins: [ORIGIN],
          group_id: siteGroup,
          cache_rules: [{ match: 'prefix', value: '/static', ttl: 600 }],
          protection: {
            rule_group_id: ruleGroup,
            attack_rule_group_id: null,
            under_attack: false,
            whitelist: [],
            waf: { mode: 'off', paranoia: 1, exclusions: [] },
          },
        },
      }),
    );
    data(
      await test.call('POST', '/v1/acls', {
        token,
        body: {
          site_id: site.id,
          entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['203.0.113.0/24'] } }],
        },
      }),
    );
    const streamGroup = data(await test.call('POST', '/v1/stream-groups', { token, body: { name: 'games' } })).id;
    data(
      await test.call('POST', '/v1/streams', {
        token,
        body: {
          listen_port: prefix === 'alice' ? 25_565 : 25_566,
          protocol: 'tcp',
          origins: [ORIGIN],
          group_id: streamGroup,
        },
      }),
    );
    data(await test.call('PUT', '/v1/user-configs', { token, body: { site_defaults: { gzip: false } } }));
    return { site };
  }

  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  it('exports names, not ids, in YAML by default and JSON on request, the same twice', async () => {
    await seed(alice, 'alice');
    const yaml = await exported(alice);
    expect(yaml.type).toContain('application/yaml');
    const document = parse(yaml.text) as CustomerDocument;
    expect(document).toMatchObject({
      version: 1,
      kind: 'rampart/customer',
      site_groups: [{ name: 'web' }],
      cc_rule_groups: [{ name: 'guard', rules: [{ match: 'login', filter: 'slow', action: 'block' }] }],
      sites: [
        {
          name: 'alice.example.test',
          group: 'web',
          settings: { cert: null, protection: { rule_group: 'guard', attack_rule_group: null } },
        },
      ],
      acls: [{ site: 'alice.example.test' }],
      streams: [{ name: 'tcp/25565', group: 'games' }],
      user_configs: { site_defaults: { gzip: false } },
      certificates: [],
    });
    expect(yaml.text).not.toMatch(/_id:/);
    const json = await exported(alice, '?format=json');
    expect(json.type).toContain('application/json');
    expect(JSON.parse(json.text)).toEqual(document);
    expect((await exported(alice)).text).toBe(yaml.text);
  });

  it('plans no change for its own export, as YAML text and as a JSON object', async () => {
    await seed(alice, 'alice');
    const yaml = await exportYaml(alice);
    const version = await currentConfigVersion(test.database.db);
    expect(await plan(alice, yaml)).toEqual({ changes: [], applied: false, config_version: null });
    expect(await plan(alice, parse(yaml))).toEqual({ changes: [], applied: false, config_version: null });
    expect(data<ImportPlan>(await importing(alice, yaml))).toMatchObject({ changes: [], applied: false });
    expect(await currentConfigVersion(test.database.db)).toBe(version);
  });

  it('applies exactly a hand edit, in one config version, and plans nothing after', async () => {
    const { site } = await seed(alice, 'alice');
    const before = parse(await exportYaml(alice)) as CustomerDocument;
    const edited = structuredClone(before);
    const settings = edited.sites?.[0]?.settings;
    if (!settings?.cache_rules?.[0]) throw new Error('the export has no cache rule');
    settings.cache_rules[0].ttl = 3600;
    edited.stream_groups?.push({ name: 'voice' });
    const text = stringify(edited);

    const planned = await plan(alice, text);
    expect(planned.changes).toEqual([
      { action: 'create', kind: 'stream_group', name: 'voice' },
      {
        action: 'update',
        kind: 'site',
        name: 'alice.example.test',
        fields: [{ path: 'settings.cache_rules[0].ttl', from: 600, to: 3600 }],
      },
    ]);
    // The dry run changed nothing.
    expect(parse(await exportYaml(alice))).toEqual(before);

    const version = await currentConfigVersion(test.database.db);
    const applied = data<ImportPlan>(await importing(alice, text));
    expect(applied).toMatchObject({ applied: true, config_version: version + 1, changes: planned.changes });
    expect(await currentConfigVersion(test.database.db)).toBe(version + 1);
    const after = data<Site>(await test.call('GET', `/v1/sites/${site.id}`, { token: alice }));
    expect(after.cache_rules[0]?.ttl).toBe(3600);
    expect(parse(await exportYaml(alice))).toEqual(edited);
    expect((await plan(alice, text)).changes).toEqual([]);
  });

  it('creates, changes and deletes by name, resolving references', async () => {
    await seed(alice, 'alice');
    const document = parse(await exportYaml(alice)) as CustomerDocument;
    document.sites?.push({
      name: 'blog',
      group: 'web',
      settings: {
        domains: ['blog.alice.example.test'],
        origins: [ORIGIN],
        protection: { rule_group: 'guard' },
      },
    });
    document.acls = [];
    document.streams = [];
    document.stream_groups = [];
    const applied = data<ImportPlan>(await importing(alice, document));
    expect(applied.changes).toEqual([
      { action: 'delete', kind: 'stream_group', name: 'games' },
      { action: 'create', kind: 'site', name: 'blog' },
      { action: 'delete', kind: 'acl', name: 'alice.example.test' },
      { action: 'delete', kind: 'stream', name: 'tcp/25565' },
    ]);
    const again = parse(await exportYaml(alice)) as CustomerDocument;
    expect(again.sites?.find((site) => site.name === 'blog')).toMatchObject({
      group: 'web',
      settings: { domains: ['blog.alice.example.test'], protection: { rule_group: 'guard' } },
    });
    expect([again.acls, again.streams, again.stream_groups]).toEqual([[], [], []]);
  });

  it('changes nothing for an invalid document and names the field by its path', async () => {
    await seed(alice, 'alice');
    const yaml = await exportYaml(alice);
    const document = parse(yaml) as CustomerDocument;
    document.site_groups?.push({ name: 'new group' });
    document.sites?.push({
      name: 'bad',
      settings: { domains: ['bad.example.test'], origins: [{ ...ORIGIN, port: 70_000 }] },
    });
    const refused = await importing(alice, document);
    expect([refused.status, refused.body.msg]).toEqual([400, 'sites[1].settings.origins[0].port: must be <= 65535']);
    expect(await exportYaml(alice)).toBe(yaml);

    const unknown = parse(yaml) as Record<string, unknown> & CustomerDocument;
    (unknown.sites?.[0]?.settings as Record<string, unknown>).cache = { rules: [] };
    const extra = await importing(alice, unknown, true);
    expect([extra.status, extra.body.msg]).toEqual([400, 'sites[0].settings.cache: is not a field of this object']);

    const broken = await importing(alice, 'version: 1\nkind: [unclosed', true);
    expect(broken.status).toBe(400);
    expect(broken.body.msg).toMatch(/^document: is not valid YAML or JSON/);

    // A check of the service's (a domain another user's site holds) rolls back what came before it.
    await seed(bob, 'bob');
    const taking = parse(yaml) as CustomerDocument;
    taking.site_groups?.push({ name: 'new group' });
    taking.sites?.push({ name: 'taken', settings: { domains: ['bob.example.test'], origins: [ORIGIN] } });
    const taken = await importing(alice, taking);
    expect([taken.status, taken.body.msg]).toEqual([
      409,
      'sites[1].settings.domains: bob.example.test already belongs to another site',
    ]);
    expect(await exportYaml(alice)).toBe(yaml);
  });

  it('keeps to the caller’s own objects: another user’s names do not resolve, system rows by system: only', async () => {
    await seed(alice, 'alice');
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const systemMatch = await createMatch(test, admin, { ...pathMatch('sys login'), system: true });
    const systemFilter = await createFilter(test, admin, { ...rateFilter('sys slow'), system: true });
    await createGroup(test, admin, {
      name: 'shared',
      system: true,
      rules: [{ match_id: systemMatch, filter_id: systemFilter, action: 'log' }],
    });
    const aliceBefore = await exportYaml(alice);

    const site = { name: 'b', settings: { domains: ['b.example.test'], origins: [ORIGIN] } };
    const foreign = {
      version: 1,
      kind: 'rampart/customer',
      sites: [{ ...site, settings: { ...site.settings, protection: { rule_group: 'guard' } } }],
    };
    const refused = await importing(bob, foreign);
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      'sites[0].settings.protection.rule_group: rule group "guard" does not exist',
    ]);
    const shared = {
      version: 1,
      kind: 'rampart/customer',
      sites: [{ ...site, settings: { ...site.settings, protection: { rule_group: 'system:shared' } } }],
      cc_rule_groups: [
        { name: 'mine', rules: [{ match: 'system:sys login', filter: 'system:sys slow', action: 'block' }] },
      ],
      cc_matches: [],
    };
    const applied = data<ImportPlan>(await importing(bob, shared));
    expect(applied.changes).toEqual([
      { action: 'create', kind: 'cc_rule_group', name: 'mine' },
      { action: 'create', kind: 'site', name: 'b' },
    ]);
    // What the document left out took its default (ban_seconds) or kept its value: nothing more to do.
    expect((await plan(bob, shared)).changes).toEqual([]);
    const bobs = parse(await exportYaml(bob)) as CustomerDocument;
    expect(bobs.cc_matches).toEqual([]);
    expect(bobs.sites?.[0]?.settings.protection?.rule_group).toBe('system:shared');
    // Bob's empty sections deleted nothing of Alice's; the system rows stay.
    data(await importing(bob, { version: 1, kind: 'rampart/customer', sites: [], cc_rule_groups: [] }));
    expect(await exportYaml(alice)).toBe(aliceBefore);
    const system = data<{ total: number }>(await test.call('GET', '/v1/cc-rules?user_id=0', { token: admin }));
    expect(system.total).toBeGreaterThanOrEqual(1);

    // Another user's configuration: an administrator holding admin:user names them; a customer cannot.
    const aliceId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
    expect((await exported(bob, `?user_id=${aliceId}`)).status).toBe(403);
    expect(
      (await test.call('POST', '/v1/import', { token: bob, body: { document: aliceBefore, user_id: aliceId } })).status,
    ).toBe(403);
    expect((await exported(admin, `?user_id=${aliceId}`)).text).toBe(aliceBefore);
    const forAlice = parse(aliceBefore) as CustomerDocument;
    forAlice.site_groups?.push({ name: 'set by the operator' });
    const operated = data<ImportPlan>(
      await test.call('POST', '/v1/import', { token: admin, body: { document: forAlice, user_id: aliceId } }),
    );
    expect(operated.changes).toEqual([{ action: 'create', kind: 'site_group', name: 'set by the operator' }]);
    expect((parse(await exportYaml(alice)) as CustomerDocument).site_groups).toEqual([
      { name: 'set by the operator' },
      { name: 'web' },
    ]);
  });

  it('holds the caller’s package limits, naming the site that does not fit', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const packageId = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: {
          name: 'One site',
          price_month: 100,
          max_sites: 1,
          max_domains: 5,
          max_streams: 1,
          max_ports: 1,
          on_sale: true,
        },
      }),
    ).id;
    const aliceId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
    data(await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: admin, body: { amount: 10_000 } }));
    data(await test.call('POST', '/v1/user-packages', { token: alice, body: { package_id: packageId } }));
    const sites = ['one', 'two'].map((name) => ({
      name,
      settings: { domains: [`${name}.example.test`], origins: [ORIGIN] },
    }));
    const refused = await importing(alice, { version: 1, kind: 'rampart/customer', sites });
    expect([refused.body.code, refused.body.msg]).toEqual([
      'limit_reached',
      'sites[1]: package One site allows 1 sites; 1 are used',
    ]);
    expect((parse(await exportYaml(alice)) as CustomerDocument).sites).toEqual([]);
    data(await importing(alice, { version: 1, kind: 'rampart/customer', sites: sites.slice(0, 1) }));
  });

  it('exports certificate keys only with the password again', async () => {
    const refused = await exported(alice, '?include_keys=true');
    expect(refused.status).toBe(400);
    const wrong = await exported(alice, '?include_keys=true', { 'x-confirm-password': 'not-it' });
    expect(JSON.parse(wrong.text)).toMatchObject({ msg: 'password: the current password is wrong' });
    const confirmed = await exported(alice, '?include_keys=true&format=json', { 'x-confirm-password': 'alice-pass' });
    expect(confirmed.status).toBe(200);
    expect(JSON.parse(confirmed.text)).toMatchObject({ certificates: [] });
  });
});
