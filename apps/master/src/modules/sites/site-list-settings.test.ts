import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('the site list’s parsed settings on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  type Listed = { id: number; gzip: boolean; domains: string[]; origins: { port: number }[] };
  const list = async () =>
    ((await test.call('GET', '/v1/sites?page=1&limit=20', { token: alice })).body.data as { list: Listed[] }).list;

  it('shows a change at once, and each site its own settings, though lists parse them once', async () => {
    const ids: number[] = [];
    for (const [i, gzip] of [true, false].entries()) {
      const created = await test.call('POST', '/v1/sites', {
        token: alice,
        body: { domains: [`s${i}.list.example.com`], origins: [{ ...origin, port: 8081 + i }], gzip },
      });
      ids.push((created.body.data as { id: number }).id);
    }
    const first = await list();
    expect(first.map((site) => [site.domains[0], site.gzip, site.origins[0]?.port])).toEqual([
      ['s1.list.example.com', false, 8082],
      ['s0.list.example.com', true, 8081],
    ]);
    expect(await list()).toEqual(first);
    await test.call('PUT', `/v1/sites/${ids[0]}`, {
      token: alice,
      body: { gzip: false, origins: [{ ...origin, port: 9000 }] },
    });
    const after = await list();
    expect(after.map((site) => [site.gzip, site.origins[0]?.port])).toEqual([
      [false, 8082],
      [false, 9000],
    ]);
    // And a single read is its own copy, whatever the lists hold.
    const one = (await test.call('GET', `/v1/sites/${ids[0]}`, { token: alice })).body.data as Listed;
    expect(one.origins[0]?.port).toBe(9000);
  });
});
