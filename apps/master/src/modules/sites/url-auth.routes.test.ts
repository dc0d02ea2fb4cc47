import { DEFAULT_SITE_URL_AUTH } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';
import { sharedPart } from '../agent/snapshot.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
const KEY = 'PrimaryKey0123456789';
const on = { ...DEFAULT_SITE_URL_AUTH, enabled: true, key: KEY };

describe.each(DIALECTS)('a site’s signed URLs on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const create = (url_auth: unknown) =>
    test.call('POST', '/v1/sites', {
      token: alice,
      body: { domains: ['dl.example.com'], origins: [origin], url_auth },
    });

  it('is off until set, then stored, shown to its owner and sent to the edges', async () => {
    const plain = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { domains: ['a.example.com'], origins: [origin] },
    });
    expect((plain.body.data as { url_auth: unknown }).url_auth).toEqual(DEFAULT_SITE_URL_AUTH);
    const url_auth = { ...on, type: 'b', backup_key: 'BackupKey98765432100', ttl: 3600, extensions: ['mp4'] };
    const saved = await create(url_auth);
    expect(saved.body).toMatchObject({ code: 0, data: { url_auth } });
    const id = (saved.body.data as { id: number }).id;
    const shared = JSON.parse(
      `{${(await sharedPart(test.database.db, await currentConfigVersion(test.database.db))).json}}`,
    ) as { sites: { id: number; url_auth?: unknown }[] };
    expect(shared.sites.find((entry) => entry.id === id)?.url_auth).toEqual(url_auth);
  });

  it('names the field and the rule when a setting cannot work, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ...on, key: '' }, 'url_auth/key: signed URLs need a primary key'],
      [{ ...on, backup_key: KEY }, 'url_auth/backup_key: must differ from the primary key'],
      [{ ...on, extensions: ['mp4', 'MP4'] }, 'url_auth/extensions/1: MP4 is listed twice'],
    ];
    for (const [url_auth, msg] of cases) {
      expect((await create(url_auth)).body, JSON.stringify(url_auth)).toMatchObject({ code: 'invalid_param', msg });
    }
    for (const bad of [
      { ...on, key: 'short' },
      { ...on, ttl: 0 },
      { ...on, type: 'd' },
      ...HOSTILE_VALUES.map((value) => ({ ...on, key: `${KEY}${value}` })),
      ...HOSTILE_VALUES.map((value) => ({ ...on, paths: [`/private${value}`] })),
    ]) {
      expect((await create(bad)).body.code, JSON.stringify(bad)).toBe('invalid_param');
    }
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
  });
});
