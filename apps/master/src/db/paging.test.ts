import { MAX_LIMIT, MAX_PAGE } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/test-app.ts';

const LISTS = [
  '/v1/sites',
  '/v1/streams',
  '/v1/certs',
  '/v1/jobs',
  '/v1/nodes',
  '/v1/tasks',
  '/v1/cc-matchs',
  '/v1/cc-filters',
  '/v1/cc-rules',
  '/v1/acls',
  '/v1/monitor/site/blackip',
  '/v1/monitor/site/history-blackip',
  '/v1/monitor/site/block-log',
  '/v1/log/msg-send',
];

describe.each(DIALECTS)('paging of every list on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await test.close();
  });

  it('refuses a page or limit that is not a whole number in range, naming it', async () => {
    const cases = [
      ['page', '1e21'],
      ['page', '99999999999999999999999'],
      ['page', '1e309'],
      ['page', 'Infinity'],
      ['page', 'NaN'],
      ['page', '1.5'],
      ['page', String(MAX_PAGE + 1)],
      ['limit', '1e309'],
      ['limit', String(MAX_LIMIT + 1)],
      ['limit', '0'],
    ];
    for (const list of LISTS) {
      for (const [name, value] of cases) {
        const result = await test.call('GET', `${list}?${name}=${value}`, { token: admin });
        expect(result.status, `${list}?${name}=${value}`).toBe(400);
        expect(result.body.code).toBe('invalid_param');
        expect(result.body.msg, `${list}?${name}=${value}`).toMatch(new RegExp(`^querystring/${name}: must be `));
      }
    }
  });

  it('serves the last page there is: an empty one', async () => {
    for (const list of LISTS) {
      const result = await test.call('GET', `${list}?page=${MAX_PAGE}&limit=${MAX_LIMIT}`, { token: admin });
      expect(result.body.code, `${list}: ${result.body.msg}`).toBe(0);
      expect((result.body.data as { list: unknown[] }).list, list).toEqual([]);
    }
  });
});
