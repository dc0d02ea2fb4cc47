import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS, otherMasterHandle } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMessenger, type Messenger } from '../messages/messenger.ts';
import { createNotifier } from '../messages/notifier.ts';
import { findScheduledTask, presentScheduledTask } from './schedules.repository.ts';
import {
  type ScheduleDeps,
  type ScheduledJob,
  type ScheduleTimer,
  settleScheduledRuns,
  startScheduledRun,
  startSchedules,
} from './schedules.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('scheduled tasks across masters on $dialect', (target) => {
  let test: TestApp;
  let messenger: Messenger;
  let deps: ScheduleDeps;
  let other: { db: Kysely<Database>; close(): Promise<void> };
  const timers: ScheduleTimer[] = [];
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    const { db, logs, dialect } = test.database;
    const log = test.app.log;
    messenger = createMessenger({ db, log, smtpFrom: 'test@localhost' });
    const secrets = secretBox(loadSecretKey(test.database.dataDir, undefined));
    const notifier = createNotifier({ db, log, messenger, secrets });
    deps = { db, logs, events: test.events, dialect, log, notifier, secrets };
    other = await otherMasterHandle(test.database, target);
  });
  afterEach(async () => {
    for (const timer of timers.splice(0)) await timer.abandon();
    messenger.close();
    await other.close();
    await test.close();
  });

  const start = (db: Kysely<Database>, holder: string, job: ScheduledJob, leaseMs: number) => {
    const timer = startSchedules({ ...deps, db }, { holder, leaseMs, pollMs: 20, jobs: [job] });
    timers.push(timer);
    return timer;
  };
  const probe = async () => {
    const row = await findScheduledTask(test.database.db, 'probe');
    if (!row) throw new Error('the probe task has no row yet');
    return row;
  };
  it('never runs a task on two masters at once, though both find it due at every poll', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let refused = 0;
    let pressing = true;
    const job: ScheduledJob = {
      name: 'probe',
      intervalSeconds: 0,
      async run() {
        active++;
        most = Math.max(most, active);
        // Long enough for both masters to try to start it several times meanwhile.
        const from = refused;
        while (pressing && refused < from + 10) await sleep(5);
        active--;
        runs++;
      },
    };
    start(test.database.db, 'master-a', job, 1200);
    start(other.db, 'master-b', job, 1200);
    // And admins press "run now" on both masters all the while.
    while (runs < 6) {
      const presses = [test.database.db, other.db].map((db) => startScheduledRun({ ...deps, db }, job));
      refused += (await Promise.all(presses)).filter((press) => !press.started).length;
      await sleep(5);
    }
    pressing = false;
    for (const timer of timers.splice(0)) await timer.stop();
    await settleScheduledRuns();
    expect(most).toBe(1);
    expect(await probe()).toMatchObject({ running_since: null, run_holder: '', last_result: 'ok' });
  });

  it('lets another master take over a task whose master died, and run again the run it cut', async () => {
    const leaseMs = 1000;
    let calls = 0;
    let releaseCut = () => {};
    const cut = new Promise<void>((resolve) => {
      releaseCut = resolve;
    });
    const job: ScheduledJob = {
      name: 'probe',
      // Due once an hour: only a run that never finished makes it due again at once.
      intervalSeconds: 3600,
      async run() {
        calls++;
        if (calls > 1) return;
        await cut;
        throw new Error('the run of the master that died');
      },
    };
    const first = start(test.database.db, 'master-a', job, leaseMs);
    await expect.poll(() => calls).toBe(1);
    expect(await probe()).toMatchObject({ run_holder: 'master-a' });
    expect(presentScheduledTask(await probe())).toMatchObject({ running: true });

    // While master-a renews its claim, master-b leaves the task alone for longer than a lease.
    start(other.db, 'master-b', job, leaseMs);
    const until = Number((await probe()).run_expires_at);
    await expect.poll(async () => Number((await probe()).run_expires_at) - until).toBeGreaterThan(leaseMs);
    expect(calls).toBe(1);

    // master-a dies: it renews no more and lets nothing go.
    const ended = first.abandon();
    await expect.poll(async () => (await probe()).last_result, { timeout: 10_000 }).toBe('ok');
    expect(calls).toBe(2);
    const taken = await probe();
    expect(taken).toMatchObject({ running_since: null, run_holder: '', last_error: '' });
    expect(presentScheduledTask(taken)).toMatchObject({ name: 'probe', running: false, last_result: 'ok' });

    // The cut run ending late (a master that was only cut off) writes nothing over the new one.
    releaseCut();
    await ended;
    expect(await probe()).toEqual(taken);
  });
});
