import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

interface Storage {
  dialect: string;
  config_bytes: number;
  logs_bytes: number;
}

describe.each(DIALECTS)('GET /v1/system/storage on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const storage = async () => {
    const result = await test.call('GET', '/v1/system/storage', { token: admin });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as Storage;
  };

  it('tells the admin what each store takes, the logs store growing with its lines', async () => {
    const before = await storage();
    expect(before.dialect).toBe(target.dialect);
    expect(before.config_bytes).toBeGreaterThan(0);
    const { logs, dialect } = test.database;
    const now = Date.now();
    await ensureDayPartitions(logs, dialect, 'access_logs', 'ms', [now]);
    const line = {
      node_id: 1,
      site_id: 1,
      time_ms: now,
      client_ip: '203.0.113.9',
      method: 'GET',
      host: 'a.example.com',
      uri: '/',
      status: 200,
      bytes_sent: 10,
      bytes_received: 5,
      request_time_ms: 1,
      upstream_time_ms: null,
      cache_status: 'MISS',
      user_agent: 'x'.repeat(1000),
      referer: '',
      block_reason: '',
      client_ip_key: null,
    };
    for (let batch = 0; batch < 5; batch++) {
      await logs
        .insertInto('access_logs')
        .values(Array.from({ length: 200 }, () => line))
        .execute();
    }
    const after = await storage();
    // A thousand lines of over a kilobyte each.
    expect(after.logs_bytes - before.logs_bytes).toBeGreaterThan(500_000);
    expect(after.config_bytes).toBeLessThan(before.config_bytes + 100_000);
  });

  it('is for admins holding admin:sys only', async () => {
    const alice = await addUser(test, 'alice');
    const result = await test.call('GET', '/v1/system/storage', { token: alice });
    expect(result.body.code).toBe('forbidden');
  });
});
