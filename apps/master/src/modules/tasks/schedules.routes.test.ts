import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMessenger } from '../messages/messenger.ts';
import { createNotifier } from '../messages/notifier.ts';
import { startSchedules } from './schedules.ts';

interface Scheduled {
  name: string;
  enabled: boolean;
  interval_seconds: number;
  running: boolean;
  last_started_at: string | null;
  last_result: 'ok' | 'failed' | null;
  last_error: string;
  last_duration_ms: number | null;
  next_run_at: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('scheduled tasks on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const scheduled = async () => {
    const result = await test.call('GET', '/v1/tasks/scheduled', { token: admin });
    expect(result.body.code, result.body.msg).toBe(0);
    return (result.body.data as { list: Scheduled[] }).list;
  };
  const one = async (name: string) => (await scheduled()).find((task) => task.name === name);
  // Operation log rows of both ages: one past the 180 days, one within.
  const seedLogs = async () => {
    await test.call('PUT', '/v1/user', { token: admin, body: { name: 'Old' } });
    await test.database.db
      .updateTable('op_logs')
      .set({ created_at: Date.now() - 200 * DAY_MS })
      .execute();
    await test.call('PUT', '/v1/user', { token: admin, body: { name: 'Recent' } });
    await test.database.db
      .updateTable('op_logs')
      .set({ created_at: Date.now() - 100 * DAY_MS })
      .where('created_at', '>', Date.now() - DAY_MS)
      .execute();
  };
  // Ages in days of the seeded rows left (the calls of the test add rows of today).
  const logAges = async () =>
    (await test.database.db.selectFrom('op_logs').select('created_at').execute())
      .map((row) => Math.round((Date.now() - Number(row.created_at)) / DAY_MS))
      .filter((days) => days > 0);

  it('lists certificate renewal, log retention, expiry notices and package settlement, and changes whether and how often they run', async () => {
    expect(await scheduled()).toEqual([
      expect.objectContaining({ name: 'cert-renewal', enabled: true, interval_seconds: 3600, last_result: null }),
      expect.objectContaining({ name: 'dns-drift', enabled: true, interval_seconds: 3600, running: false }),
      expect.objectContaining({ name: 'domain-proofs', enabled: true, interval_seconds: 60, running: false }),
      expect.objectContaining({ name: 'expiry-notices', enabled: true, interval_seconds: 3600, running: false }),
      expect.objectContaining({ name: 'log-retention', enabled: true, interval_seconds: 3600, running: false }),
      expect.objectContaining({ name: 'traffic-retention', enabled: true, interval_seconds: 3600, running: false }),
      expect.objectContaining({ name: 'user-packages', enabled: true, interval_seconds: 60, running: false }),
      expect.objectContaining({ name: 'wxpay-certificates', enabled: true, interval_seconds: 43_200, running: false }),
    ]);
    const changed = await test.call('PUT', '/v1/tasks/scheduled/log-retention', {
      token: admin,
      body: { enabled: false, interval_seconds: 600 },
    });
    expect(changed.body.data).toMatchObject({ enabled: false, interval_seconds: 600, next_run_at: null });
    expect(await one('log-retention')).toMatchObject({ enabled: false, interval_seconds: 600 });

    for (const [body, field] of [
      [{ interval_seconds: 30 }, 'body/interval_seconds'],
      [{ enabled: 'yes' }, 'body/enabled'],
      [{ every: 60 }, 'body/every'],
    ] as const) {
      const bad = await test.call('PUT', '/v1/tasks/scheduled/log-retention', { token: admin, body });
      expect(bad.body.code).toBe('invalid_param');
      expect(bad.body.msg).toContain(field);
    }
    const unknown = await test.call('POST', '/v1/tasks/scheduled/coffee/run', { token: admin });
    expect(unknown.body).toMatchObject({
      code: 'not_found',
      msg: 'scheduled task coffee does not exist; there are cert-renewal, log-retention, traffic-retention, user-packages, expiry-notices, dns-drift, domain-proofs, wxpay-certificates',
    });
  });

  it('runs a task now, even while disabled, and records its result and duration', async () => {
    await seedLogs();
    await test.call('PUT', '/v1/tasks/scheduled/log-retention', { token: admin, body: { enabled: false } });
    const run = await test.call('POST', '/v1/tasks/scheduled/log-retention/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    expect(run.body.data).toMatchObject({ name: 'log-retention', last_started_at: expect.any(String) });
    await expect.poll(async () => (await one('log-retention'))?.last_result).toBe('ok');
    expect(await one('log-retention')).toMatchObject({ running: false, last_error: '' });
    expect((await one('log-retention'))?.last_duration_ms).toEqual(expect.any(Number));
    expect(await logAges()).toEqual([100]);
  });

  it('runs enabled tasks once their interval has passed', async () => {
    await seedLogs();
    const { db } = test.database;
    const log = test.app.log;
    const messenger = createMessenger({ db, log, smtpFrom: 'test@localhost' });
    const secrets = secretBox(loadSecretKey(test.database.dataDir, undefined));
    const notifier = createNotifier({ db, log, messenger, secrets });
    const { logs, dialect } = test.database;
    const schedules = startSchedules({ db, logs, events: test.events, dialect, log, notifier, secrets });
    try {
      await expect.poll(async () => (await one('log-retention'))?.last_result, { timeout: 15_000 }).toBe('ok');
    } finally {
      await schedules.stop();
      messenger.close();
    }
    expect(await logAges()).toEqual([100]);
  });

  it('is for admins holding admin:sys only', async () => {
    const alice = await addUser(test, 'alice');
    for (const [method, url] of [
      ['GET', '/v1/tasks/scheduled'],
      ['PUT', '/v1/tasks/scheduled/log-retention'],
      ['POST', '/v1/tasks/scheduled/log-retention/run'],
    ] as const) {
      const result = await test.call(method, url, {
        token: alice,
        body: method === 'PUT' ? { enabled: false } : undefined,
      });
      expect(result.body.code, url).toBe('forbidden');
    }
    expect(await one('log-retention')).toMatchObject({ enabled: true });
  });
});
