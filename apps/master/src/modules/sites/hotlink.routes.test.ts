import { DEFAULT_SITE_HOTLINK } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';
import { sharedPart } from '../agent/snapshot.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
const site = { domains: ['img.example.com', '*.cdn.example.com'], origins: [origin] };
const on = { ...DEFAULT_SITE_HOTLINK, enabled: true };

describe.each(DIALECTS)('a site’s hotlink protection on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const create = (hotlink: unknown) => test.call('POST', '/v1/sites', { token: alice, body: { ...site, hotlink } });

  it('is off on a site that never set it, and is stored, shown and sent to the edges once set', async () => {
    const plain = await test.call('POST', '/v1/sites', { token: alice, body: { ...site, domains: ['a.example.com'] } });
    expect((plain.body.data as { hotlink: unknown }).hotlink).toEqual(DEFAULT_SITE_HOTLINK);
    const id = (plain.body.data as { id: number }).id;
    const before = await currentConfigVersion(test.database.db);
    const hotlink = { ...on, allow: ['*.partner.example.net'], allow_empty: false, action: 'forbid' };
    const saved = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { hotlink } });
    expect(saved.body).toMatchObject({ code: 0, data: { hotlink } });
    expect((await test.call('GET', `/v1/sites/${id}`, { token: alice })).body).toMatchObject({ data: { hotlink } });
    const version = await currentConfigVersion(test.database.db);
    expect(version).toBe(before + 1);
    const shared = JSON.parse(`{${(await sharedPart(test.database.db, version)).json}}`) as {
      sites: { id: number; hotlink?: unknown }[];
    };
    expect(shared.sites.find((entry) => entry.id === id)?.hotlink).toEqual(hotlink);
  });

  it('names the field and the rule when a setting cannot work', async () => {
    const cases: [unknown, string][] = [
      [{ ...on, action: 'redirect' }, 'hotlink/redirect_url: a redirect needs a URL'],
      [
        { ...on, allow: ['x.example.net'], deny: ['x.example.net'] },
        'hotlink/deny/0: x.example.net is also in hotlink/allow',
      ],
      [
        { ...on, deny: ['*.example.com'] },
        "hotlink/deny/0: *.example.com covers the site's own domain img.example.com",
      ],
      [{ ...on, extensions: ['png', 'PNG'] }, 'hotlink/extensions/1: PNG is listed twice'],
      [{ ...on, action: 'redirect', redirect_url: 'http://[x]/' }, 'hotlink/redirect_url: http://[x]/ is not a URL'],
      [
        { ...on, action: 'redirect', redirect_url: 'https://x.cdn.example.com/blocked.png' },
        "hotlink/redirect_url: x.cdn.example.com/blocked.png is one of this site's .png files, which the protection refuses too: the redirect would loop",
      ],
    ];
    for (const [hotlink, msg] of cases) {
      expect((await create(hotlink)).body, JSON.stringify(hotlink)).toMatchObject({ code: 'invalid_param', msg });
    }
    // A redirect to a page, or to another site's image, is fine.
    expect(
      (await create({ ...on, action: 'redirect', redirect_url: 'https://img.example.com/why.html' })).body.code,
    ).toBe(0);
  });

  it('refuses hostile values in every field that reaches the edge, and stores nothing', async () => {
    const fields: ((value: string) => unknown)[] = [
      (v) => ({ ...on, allow: [`a${v}.example.net`] }),
      (v) => ({ ...on, deny: [`a${v}.example.net`] }),
      (v) => ({ ...on, extensions: [`png${v}`] }),
      (v) => ({ ...on, action: 'redirect', redirect_url: `https://example.net/${v}` }),
    ];
    for (const field of fields) {
      for (const value of HOSTILE_VALUES) {
        const result = await create(field(value));
        expect(result.body.code, JSON.stringify(field(value))).toBe('invalid_param');
      }
    }
    expect((await create({ ...on, extensions: [] })).body.code).toBe('invalid_param');
    expect((await create({ ...on, action: 'redirect', redirect_url: 'javascript:alert(1)' })).body.code).toBe(
      'invalid_param',
    );
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
  });
});
