import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCert } from '../test/certs.ts';
import { DIALECTS } from '../test/databases.ts';
import { ORIGIN } from '../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../test/test-app.ts';

/** Every call where an admin makes a row for another user, with a body that is otherwise valid. */
const creations = (): [string, Record<string, unknown>][] => {
  const cert = makeCert(['owned.example.com']);
  return [
    ['/v1/site-groups', { name: 'g' }],
    ['/v1/stream-groups', { name: 'g' }],
    ['/v1/sites', { domains: ['owned.example.com'], origins: [ORIGIN] }],
    ['/v1/streams', { listen_port: 20_100, protocol: 'tcp', origins: [ORIGIN] }],
    ['/v1/certs', { cert: cert.cert, key: cert.key }],
    ['/v1/cc-matchs', { name: 'm', conditions: [{ field: 'path', op: 'prefix', values: ['/'] }] }],
    ['/v1/cc-filters', { name: 'f', type: 'js' }],
    ['/v1/cc-rules', { name: 'g' }],
  ];
};

const OWNED_TABLES = [
  'site_groups',
  'stream_groups',
  'sites',
  'streams',
  'certs',
  'cc_matches',
  'cc_filters',
  'cc_rule_groups',
] as const;

describe.each(DIALECTS)('rows made for a user by an admin on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let aliceId: number;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    await addUser(test, 'alice');
    aliceId = (
      await test.database.db.selectFrom('users').select('id').where('username', '=', 'alice').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await test.close();
  });

  it('answers not_found naming user_id when the user does not exist, and stores nothing', async () => {
    for (const [path, body] of creations()) {
      const result = await test.call('POST', path, { token: admin, body: { ...body, user_id: 999 } });
      expect(result.status, path).toBe(404);
      expect(result.body, path).toEqual({ code: 'not_found', msg: 'user_id: user 999 does not exist', data: null });
    }
    for (const table of OWNED_TABLES) {
      expect(await test.database.db.selectFrom(table).select('id').execute(), table).toEqual([]);
    }
  });

  it('makes them for a user who exists', async () => {
    for (const [path, body] of creations()) {
      const result = await test.call('POST', path, { token: admin, body: { ...body, user_id: aliceId } });
      expect(result.body.code, `${path}: ${result.body.msg}`).toBe(0);
      expect((result.body.data as { user_id: number }).user_id, path).toBe(aliceId);
    }
  });
});
