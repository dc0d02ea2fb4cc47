import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { DAILY_JOB_QUOTA } from './jobs.routes.ts';

describe.each(DIALECTS)('cache jobs on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    await test.call('POST', '/v1/sites', {
      token: alice,
      body: {
        domains: ['shop.example.com'],
        origins: [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }],
      },
    });
  });
  afterEach(async () => {
    await test.close();
  });

  const dirs = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `https://shop.example.com/d${from + i}/`);

  it('keeps a user within the daily quota of each kind of job, and says how much is left', async () => {
    const quota = DAILY_JOB_QUOTA['purge-dir'];
    expect(
      (await test.call('POST', '/v1/jobs', { token: alice, body: { type: 'purge-dir', urls: dirs(0, quota - 1) } }))
        .body.code,
    ).toBe(0);
    const over = await test.call('POST', '/v1/jobs', {
      token: alice,
      body: { type: 'purge-dir', urls: dirs(quota, 2) },
    });
    expect(over.status).toBe(429);
    expect(over.body.msg).toBe(`urls: purge-dir allows ${quota} URLs a day; 1 are left for now`);
    expect(
      (await test.call('POST', '/v1/jobs', { token: alice, body: { type: 'purge-dir', urls: dirs(quota, 1) } })).body
        .code,
    ).toBe(0);
    const url = await test.call('POST', '/v1/jobs', {
      token: alice,
      body: { type: 'purge-url', urls: ['https://shop.example.com/a.css'] },
    });
    expect(url.body.code).toBe(0);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect(
      (await test.call('POST', '/v1/jobs', { token: admin, body: { type: 'purge-dir', urls: dirs(0, 5) } })).body.code,
    ).toBe(0);
  });

  it('refuses URLs that are not http(s) or carry spaces', async () => {
    for (const url of ['ftp://shop.example.com/x', 'https://shop.example.com/a b', 'https://shop.example.com/\r\nx']) {
      expect(
        (await test.call('POST', '/v1/jobs', { token: alice, body: { type: 'purge-url', urls: [url] } })).body.code,
      ).toBe('invalid_param');
    }
  });
});
