import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { createFilter, createMatch, createSite, data, ipMatch, ORIGIN, rateFilter } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

type Row = { user_id: number; user_account?: string | null };

// Lists name the owner of each row (the account), so that admins need not look up user ids.
describe.each(DIALECTS)('owner accounts in list rows on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const listed = async (path: string, token = admin) =>
    data<{ list: Row[] }>(await test.call('GET', `${path}?page=1&limit=50`, { token })).list;

  it("carry the owner's account beside user_id in the lists of sites, streams and certificates", async () => {
    await createSite(test, alice, 'www.alice.example');
    data(
      await test.call('POST', '/v1/streams', {
        token: alice,
        body: { listen_port: 3306, protocol: 'tcp', origins: [ORIGIN] },
      }),
    );
    const { cert, key } = makeCert(['www.alice.example']);
    data(await test.call('POST', '/v1/certs', { token: alice, body: { cert, key } }));
    for (const path of ['/v1/sites', '/v1/streams', '/v1/certs']) {
      expect(await listed(path), path).toEqual([expect.objectContaining({ user_account: 'alice' })]);
      expect(await listed(path, alice), path).toEqual([expect.objectContaining({ user_account: 'alice' })]);
    }
  });

  it('carry it in the CC lists too, null for system rows', async () => {
    await createMatch(test, alice);
    await createMatch(test, admin, { ...ipMatch('system ips'), system: true });
    await createFilter(test, alice, rateFilter());
    data(await test.call('POST', '/v1/cc-rules', { token: alice, body: { name: 'my rules' } }));
    const accounts = (rows: Row[]) => rows.map(({ user_id, user_account }) => [user_id, user_account]);
    const aliceId = (await listed('/v1/cc-filters'))[0]?.user_id;
    expect(accounts(await listed('/v1/cc-matchs'))).toEqual([
      [0, null],
      [aliceId, 'alice'],
    ]);
    expect(accounts(await listed('/v1/cc-filters'))).toEqual([[aliceId, 'alice']]);
    expect(accounts(await listed('/v1/cc-rules'))).toEqual(expect.arrayContaining([[aliceId, 'alice']]));
  });
});
