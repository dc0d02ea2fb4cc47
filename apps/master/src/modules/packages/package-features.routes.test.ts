import {
  DEFAULT_SITE_HEALTH_CHECK,
  DEFAULT_SITE_HOTLINK,
  DEFAULT_SITE_PROTECTION,
  DEFAULT_SITE_REDIRECTS,
  DEFAULT_SITE_URL_AUTH,
  PACKAGE_FEATURES,
  type PackageView,
  type Site,
  type SitePackageFeatures,
  type UserPackagePurchase,
  type UserPackageView,
} from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data, ORIGIN } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, type CallResult, startTestApp, type TestApp } from '../../test/test-app.ts';
import { checkAclFeatures } from './site-features.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const HOTLINK_ON = { ...DEFAULT_SITE_HOTLINK, enabled: true };
const URL_AUTH_ON = { ...DEFAULT_SITE_URL_AUTH, enabled: true, key: 'PrimaryKey0123456789' };
const WAF_BLOCK = { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'block', paranoia: 1, exclusions: [] } };
const NONE = Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, false]));
const ALL = Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, true]));

describe.each(DIALECTS)('site features a package allows on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let bare: number;
  let full: number;
  const as = (token: string) => (method: Method, url: string, body?: unknown) =>
    test.call(method, url, { token, ...(body !== undefined && { body }) });
  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const buyer = async (name: string, packageId: number | null) => {
    const token = await addUser(test, name);
    if (packageId !== null) {
      data(await as(admin)('POST', `/v1/user/${await userId(token)}/recharge`, { amount: 10_000 }));
      data(await as(token)('POST', '/v1/user-packages', { package_id: packageId }));
    }
    return token;
  };
  const newSite = (token: string, domain: string, extra: Record<string, unknown> = {}) =>
    as(token)('POST', '/v1/sites', { domains: [domain], origins: [ORIGIN], ...extra });
  const siteOf = async (token: string, id: number) => data<Site>(await as(token)('GET', `/v1/sites/${id}`));
  const featuresOf = async (token: string, id: number) =>
    data<SitePackageFeatures>(await as(token)('GET', `/v1/sites/${id}/package-features`));
  const siteCount = async (token: string) => data<{ total: number }>(await as(token)('GET', '/v1/sites')).total;
  const refused = (result: CallResult, fields: string[]) => {
    expect(result.status, JSON.stringify(result.body)).toBe(403);
    expect(result.body).toMatchObject({
      code: 'package_feature',
      data: null,
      params: { field: fields[0], package: 'Bare', fields: fields.join(',') },
    });
    expect(result.body.msg).toMatch(new RegExp(`^${fields[0]}: package Bare does not include `));
  };

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    const limits = { price_month: 100, max_sites: 10, max_domains: 10, on_sale: true };
    bare = data(await as(admin)('POST', '/v1/packages', { name: 'Bare', ...limits, ...NONE })).id;
    full = data(await as(admin)('POST', '/v1/packages', { name: 'Full', ...limits })).id;
  });
  afterAll(() => test.close());

  it('allows every feature unless the package says otherwise, and shows the switches in both views', async () => {
    expect(data<PackageView>(await as(admin)('GET', `/v1/packages/${full}`))).toMatchObject(ALL);
    expect(data<PackageView>(await as(admin)('GET', `/v1/packages/${bare}`))).toMatchObject(NONE);
    const changed = data<PackageView>(await as(admin)('PUT', `/v1/packages/${full}`, { hotlink: false }));
    expect(changed).toMatchObject({ ...ALL, hotlink: false });
    data(await as(admin)('PUT', `/v1/packages/${full}`, { hotlink: true, description: 'everything' }));
    expect(data<PackageView>(await as(admin)('GET', `/v1/packages/${full}`))).toMatchObject(ALL);
    const row = await test.database.db
      .selectFrom('packages')
      .select(['https', 'waf', 'forbidden_features'])
      .where('id', '=', bare)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ https: 0, waf: 0 });
    expect(JSON.parse(row.forbidden_features)).toEqual([...PACKAGE_FEATURES]);

    const ann = await buyer('ann', bare);
    const [mine] = data<{ list: UserPackageView[] }>(await as(ann)('GET', '/v1/user-packages')).list;
    expect(mine?.features).toEqual(NONE);
  });

  it('refuses a new site that turns on a forbidden feature, naming the field, and stores nothing', async () => {
    const bob = await buyer('bob', bare);
    refused(await newSite(bob, 'hot.bob.example.com', { hotlink: HOTLINK_ON }), ['hotlink']);
    refused(await newSite(bob, 'waf.bob.example.com', { protection: WAF_BLOCK }), ['protection/waf/mode']);
    refused(await newSite(bob, 'two.bob.example.com', { hotlink: HOTLINK_ON, url_auth: URL_AUTH_ON }), [
      'hotlink',
      'url_auth',
    ]);
    const redirects = { ...DEFAULT_SITE_REDIRECTS, trailing_slash: 'add' };
    refused(await newSite(bob, 'moved.bob.example.com', { redirects }), ['redirects']);
    const healthCheck = { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true };
    refused(await newSite(bob, 'checked.bob.example.com', { health_check: healthCheck }), ['health_check']);
    expect(await siteCount(bob)).toBe(0);
    // An admin creating the site for the customer meets the customer's package.
    refused(await newSite(admin, 'admin.bob.example.com', { user_id: await userId(bob), hotlink: HOTLINK_ON }), [
      'hotlink',
    ]);
    expect(await siteCount(bob)).toBe(0);
    // The off values of a feature are no use of it.
    const plain = data(await newSite(bob, 'plain.bob.example.com', { hotlink: DEFAULT_SITE_HOTLINK })).id;
    expect(await featuresOf(bob, plain)).toMatchObject({
      limited: true,
      package_name: 'Bare',
      features: NONE,
      in_use: [],
    });
  });

  it('leaves off a forbidden feature that only came from the operator’s defaults', async () => {
    const defaults = '/v1/configs/global-0-waf-defaults';
    data(await as(admin)('PUT', defaults, { mode: 'block', paranoia: 2, exclusions: [] }));
    try {
      const cat = await buyer('cat', bare);
      const site = data<Site>(await newSite(cat, 'cat.example.com'));
      expect(site.protection?.waf.mode).toBe('off');
      const dan = await buyer('dan', full);
      expect(data<Site>(await newSite(dan, 'dan.example.com')).protection?.waf.mode).toBe('block');
    } finally {
      data(await as(admin)('DELETE', defaults));
    }
  });

  it('refuses an edit that turns a forbidden feature on, by the owner or an admin, and keeps the stored site', async () => {
    const eve = await buyer('eve', bare);
    const id = data(await newSite(eve, 'eve.example.com')).id;
    const before = await siteOf(eve, id);
    refused(await as(eve)('PUT', `/v1/sites/${id}`, { url_auth: URL_AUTH_ON, name: 'renamed' }), ['url_auth']);
    refused(await as(eve)('PUT', `/v1/sites/${id}`, { error_pages: { '502': '<html>down</html>' } }), ['error_pages']);
    refused(await as(admin)('PUT', `/v1/sites/${id}`, { hotlink: HOTLINK_ON }), ['hotlink']);
    expect(await siteOf(eve, id)).toEqual(before);
    // What the package allows still saves.
    expect(data<Site>(await as(eve)('PUT', `/v1/sites/${id}`, { name: 'renamed' })).name).toBe('renamed');
  });

  it('does not limit operators or package-exempt customers', async () => {
    const fay = await buyer('fay', bare);
    data(await as(admin)('PUT', `/v1/users/${await userId(fay)}`, { package_exempt: true }));
    const id = data(await newSite(fay, 'fay.example.com', { hotlink: HOTLINK_ON })).id;
    expect(data<Site>(await as(fay)('PUT', `/v1/sites/${id}`, { url_auth: URL_AUTH_ON })).url_auth?.enabled).toBe(true);
    expect(await featuresOf(fay, id)).toMatchObject({ limited: false, features: ALL, in_use: ['hotlink', 'url_auth'] });
    data(await newSite(admin, 'operator.example.com', { hotlink: HOTLINK_ON }));
  });

  it('keeps a feature a site already uses when the package drops it, reports it, and refuses turning it on again', async () => {
    const ned = await buyer('ned', full);
    const id = data(await newSite(ned, 'ned.example.com', { hotlink: HOTLINK_ON })).id;
    data(await as(admin)('PUT', `/v1/packages/${full}`, { hotlink: false }));
    try {
      expect(await featuresOf(ned, id)).toMatchObject({
        limited: true,
        features: { ...ALL, hotlink: false },
        in_use: ['hotlink'],
        beyond: ['hotlink'],
      });
      // Its other settings still save, the feature with them.
      const saved = data<Site>(await as(ned)('PUT', `/v1/sites/${id}`, { gzip: false }));
      expect(saved.hotlink?.enabled).toBe(true);
      data(await as(ned)('PUT', `/v1/sites/${id}`, { hotlink: DEFAULT_SITE_HOTLINK }));
      expect((await featuresOf(ned, id)).beyond).toEqual([]);
      const again = await as(ned)('PUT', `/v1/sites/${id}`, { hotlink: HOTLINK_ON });
      expect(again.status).toBe(403);
      expect(again.body).toMatchObject({ code: 'package_feature', params: { field: 'hotlink', package: 'Full' } });
    } finally {
      data(await as(admin)('PUT', `/v1/packages/${full}`, { hotlink: true }));
    }
  });

  it('leaves a site that uses a forbidden feature out of the package its owner buys', async () => {
    const ola = await buyer('ola', null);
    const hot = data(await newSite(ola, 'hot.ola.example.com', { hotlink: HOTLINK_ON })).id;
    const cool = data(await newSite(ola, 'cool.ola.example.com')).id;
    data(await as(admin)('POST', `/v1/user/${await userId(ola)}/recharge`, { amount: 10_000 }));
    const bought = data<UserPackagePurchase>(await as(ola)('POST', '/v1/user-packages', { package_id: bare }));
    expect(bought.attached.sites).toBe(1);
    expect(bought.not_attached.sites).toEqual(['hot.ola.example.com']);
    expect(await featuresOf(ola, hot)).toMatchObject({ limited: false, user_package_id: null });
    expect(await featuresOf(ola, cool)).toMatchObject({ limited: true, user_package_id: bought.id });
  });

  it('refuses an ACL that brings country or ASN conditions to a site whose package leaves them out', async () => {
    const rae = await buyer('rae', bare);
    const id = data(await newSite(rae, 'rae.example.com')).id;
    const country = [{ condition: { field: 'country' } }];
    await expect(checkAclFeatures(test.database.db, id, country)).rejects.toMatchObject({
      code: 'package_feature',
      params: { field: 'protection', feature: 'geo', package: 'Bare' },
    });
    await expect(checkAclFeatures(test.database.db, id, [{ condition: { field: 'ip' } }])).resolves.toBeUndefined();
    // Through the API: creating the ACL, and changing an address ACL into a country one.
    const entry = (field: string, values: string[]) => ({
      action: 'deny',
      condition: { field, op: field === 'ip' ? 'cidr' : 'equals', values, negate: false },
    });
    refused(await as(rae)('POST', '/v1/acls', { site_id: id, entries: [entry('country', ['CN'])] }), ['protection']);
    const acl = data<{ id: number }>(
      await as(rae)('POST', '/v1/acls', { site_id: id, entries: [entry('ip', ['10.0.0.0/8'])] }),
    );
    refused(await as(rae)('PUT', `/v1/acls/${acl.id}`, { entries: [entry('country', ['CN'])] }), ['protection']);
    expect(data<{ entries: unknown[] }>(await as(rae)('GET', `/v1/acls/${acl.id}`)).entries).toEqual([
      entry('ip', ['10.0.0.0/8']),
    ]);
    const sam = await buyer('sam', full);
    const other = data(await newSite(sam, 'sam.example.com')).id;
    await expect(checkAclFeatures(test.database.db, other, country)).resolves.toBeUndefined();
  });

  it('answers the site’s features only to whoever may see the site', async () => {
    const pam = await buyer('pam', bare);
    const id = data(await newSite(pam, 'pam.example.com')).id;
    const quin = await addUser(test, 'quin');
    expect((await as(quin)('GET', `/v1/sites/${id}/package-features`)).body.code).toBe('not_found');
    expect((await featuresOf(admin, id)).limited).toBe(true);
  });
});
