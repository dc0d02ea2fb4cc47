import { DEFAULT_SITE_HEALTH_CHECK } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';
import { sharedPart } from '../agent/snapshot.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origins = [
  { address: '127.0.0.1', port: 8081, weight: 1, backup: false },
  { address: '127.0.0.2', port: 8081, weight: 1, backup: false },
];
const site = { domains: ['www.example.com'], origins };
const on = { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true };

describe.each(DIALECTS)('a site’s origin health check on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const create = (health_check: unknown) =>
    test.call('POST', '/v1/sites', { token: alice, body: { ...site, health_check } });

  it('is off on a site that never set it, and is stored, shown and sent to the edges once set', async () => {
    const plain = await test.call('POST', '/v1/sites', { token: alice, body: site });
    expect((plain.body.data as { health_check: unknown }).health_check).toEqual(DEFAULT_SITE_HEALTH_CHECK);
    const id = (plain.body.data as { id: number }).id;
    const before = await currentConfigVersion(test.database.db);
    const check = {
      ...on,
      path: '/healthz?full=1&x=y',
      host: 'origin.example.com',
      statuses: [200, 204],
      interval: 10,
      timeout: 3,
      failures: 2,
      successes: 4,
    };
    const saved = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { health_check: check } });
    expect(saved.body).toMatchObject({ code: 0, data: { health_check: check } });
    expect((await test.call('GET', `/v1/sites/${id}`, { token: alice })).body).toMatchObject({
      data: { health_check: check },
    });
    const version = await currentConfigVersion(test.database.db);
    expect(version).toBe(before + 1);
    const shared = JSON.parse(`{${(await sharedPart(test.database.db, version)).json}}`) as {
      sites: { id: number; health_check?: unknown }[];
    };
    expect(shared.sites.find((entry) => entry.id === id)?.health_check).toEqual(check);
  });

  it('names the field and the rule when a setting cannot work', async () => {
    const cases: [unknown, string][] = [
      [{ ...on, interval: 2, timeout: 5 }, 'health_check/timeout: must be at most the interval (2 seconds)'],
    ];
    for (const [check, msg] of cases) {
      expect((await create(check)).body, JSON.stringify(check)).toMatchObject({ code: 'invalid_param', msg });
    }
    const schema: [unknown, string][] = [
      [{ ...on, path: 'healthz' }, 'health_check/path'],
      [{ ...on, interval: 0 }, 'health_check/interval'],
      [{ ...on, timeout: 61 }, 'health_check/timeout'],
      [{ ...on, failures: 11 }, 'health_check/failures'],
      [{ ...on, successes: 0 }, 'health_check/successes'],
      [{ ...on, statuses: [] }, 'health_check/statuses'],
      [{ ...on, statuses: [600] }, 'health_check/statuses/0'],
      [{ ...on, statuses: [200, 301, 200] }, 'health_check/statuses'],
      [{ ...on, host: 'a b' }, 'health_check/host'],
    ];
    for (const [check, field] of schema) {
      const answer = (await create(check)).body;
      expect(answer.code, JSON.stringify(check)).toBe('invalid_param');
      expect(answer.msg, JSON.stringify(check)).toContain(field);
    }
  });

  it('refuses hostile values in every field that reaches the edge, and stores nothing', async () => {
    const fields: ((value: string) => unknown)[] = [
      (v) => ({ ...on, path: `/health${v}` }),
      (v) => ({ ...on, path: `/health?${v}` }),
      (v) => ({ ...on, host: `a${v}.example.com` }),
    ];
    for (const field of fields) {
      for (const value of HOSTILE_VALUES) {
        const result = await create(field(value));
        expect(result.body.code, JSON.stringify(field(value))).toBe('invalid_param');
      }
    }
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
  });
});
