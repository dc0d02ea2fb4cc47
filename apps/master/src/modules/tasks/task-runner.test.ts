import type { Task } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, otherMasterHandle } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { TaskFailure, type TaskHandler, TaskRunner } from './task-runner.ts';
import { claimTask, findTask, insertTask } from './tasks.repository.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('background tasks on $dialect', (target) => {
  let test: TestApp;
  let runner: TaskRunner | undefined;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await test.close();
  });

  const start = (handler: TaskHandler) => {
    runner = new TaskRunner({
      db: test.database.db,
      log: test.app.log,
      handlers: { probe: handler },
      pollMs: 50,
      heartbeatMs: 50,
      staleMs: 1000,
    });
    runner.start();
    return runner;
  };
  const add = (lockKeys: string[] = []) =>
    insertTask(test.database.db, { kind: 'probe', userId: 1, targetId: null, lockKeys }, Date.now());
  const settled = async (id: number) => {
    for (let i = 0; i < 200; i++) {
      const task = await findTask(test.database.db, id);
      if (task && (task.state === 'done' || task.state === 'failed')) return task;
      await sleep(25);
    }
    throw new Error(`task ${id} did not settle`);
  };

  it('resumes a task that a stopped master left running, and fails one interrupted too often', async () => {
    const { db } = test.database;
    const resumed = await add();
    const worn = await add();
    const long = Date.now() - 10 * 60_000;
    await db
      .updateTable('tasks')
      .set({ state: 'running', attempts: 1, heartbeat_at: long })
      .where('id', '=', resumed)
      .execute();
    await db
      .updateTable('tasks')
      .set({ state: 'running', attempts: 3, heartbeat_at: long })
      .where('id', '=', worn)
      .execute();
    const ran: number[] = [];
    start(async ({ task, progress }) => {
      await progress('working');
      ran.push(task.id);
    });
    expect(await settled(resumed)).toMatchObject({ state: 'done', progress: 'working', attempts: 2 });
    expect(await settled(worn)).toMatchObject({
      state: 'failed',
      error: 'the master stopped while the task ran, 3 times; retry it when the cause is fixed',
    });
    expect(ran).toEqual([resumed]);
  });

  it('never runs two tasks that share a domain at once', async () => {
    let running = 0;
    let most = 0;
    // Queued before the runner starts: its first look sees all three, however slow the machine.
    const ids = [await add(['a.test']), await add(['a.test', 'b.test']), await add(['c.test'])];
    start(async () => {
      running++;
      most = Math.max(most, running);
      await sleep(100);
      running--;
    });
    for (const id of ids) expect((await settled(id)).state).toBe('done');
    expect(most).toBe(2);
  });

  it('never runs two tasks that share a domain at once across masters', async () => {
    const other = await otherMasterHandle(test.database, target);
    const runners: TaskRunner[] = [];
    try {
      const running = new Map<number, string[]>();
      const clashes: string[] = [];
      let done = 0;
      const handler: TaskHandler = async ({ task }) => {
        const keys = JSON.parse(task.lock_keys) as string[];
        for (const [id, held] of running) {
          if (held.some((key) => keys.includes(key))) clashes.push(`${task.id} with ${id}`);
        }
        running.set(task.id, keys);
        // Until its heartbeat was beaten twice: both runners look for work many times meanwhile.
        const beats = new Set([(await findTask(test.database.db, task.id))?.heartbeat_at]);
        while (beats.size < 3) {
          beats.add((await findTask(test.database.db, task.id))?.heartbeat_at);
          await sleep(10);
        }
        running.delete(task.id);
        done++;
      };
      const ids: number[] = [];
      for (const keys of [['a.test'], ['a.test', 'b.test'], ['b.test'], ['a.test'], ['c.test'], ['b.test', 'c.test']]) {
        ids.push(await add(keys));
      }
      for (const [name, db] of [
        ['runner-a', test.database.db],
        ['runner-b', other.db],
      ] as const) {
        const each = new TaskRunner({
          db,
          log: test.app.log,
          handlers: { probe: handler },
          pollMs: 20,
          heartbeatMs: 50,
          staleMs: 5000,
          runner: name,
        });
        runners.push(each);
        each.start();
      }
      await expect.poll(() => done, { timeout: 15_000 }).toBe(ids.length);
      expect(clashes).toEqual([]);
      for (const id of ids) expect(await findTask(test.database.db, id)).toMatchObject({ state: 'done', runner: '' });
    } finally {
      for (const each of runners) await each.stop();
      await other.close();
    }
  });

  it('claims only one of two tasks sharing a domain when two masters claim them at the same moment', async () => {
    const other = await otherMasterHandle(test.database, target);
    try {
      for (let round = 0; round < 10; round++) {
        const first = await add([`r${round}.test`]);
        const second = await add(['x.test', `r${round}.test`]);
        const claims = await Promise.all([
          claimTask(test.database.db, { id: first, lock_keys: JSON.stringify([`r${round}.test`]) }, 'a', Date.now()),
          claimTask(other.db, { id: second, lock_keys: JSON.stringify(['x.test', `r${round}.test`]) }, 'b', Date.now()),
        ]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        await test.database.db.updateTable('tasks').set({ state: 'done' }).where('id', 'in', [first, second]).execute();
      }
    } finally {
      await other.close();
    }
  });

  it('shows a readable failure as it is and hides an unexpected one', async () => {
    start(async ({ task }) => {
      if (task.id % 2 === 1) throw new TaskFailure('the domain does not resolve to the CNAME');
      throw new TypeError('x is undefined');
    });
    const [first, second] = [await add(), await add()];
    const messages = [(await settled(first)).error, (await settled(second)).error].sort();
    expect(messages).toEqual([
      'the domain does not resolve to the CNAME',
      'the task failed unexpectedly; the master log has the details',
    ]);
  });

  it('queues a running task again when the master stops', async () => {
    let entered = false;
    const current = start(async ({ signal }) => {
      entered = true;
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      throw new TaskFailure('the master is stopping');
    });
    const id = await add();
    while (!entered) await sleep(10);
    await current.stop();
    runner = undefined;
    expect(await findTask(test.database.db, id)).toMatchObject({ state: 'queued', progress: 'queued', error: '' });
  });

  it('lets an administrator list failed tasks and retry the newest one of an object', async () => {
    const { db } = test.database;
    const older = await insertTask(db, { kind: 'probe', userId: 1, targetId: 7, lockKeys: [] }, Date.now());
    const newer = await insertTask(db, { kind: 'probe', userId: 1, targetId: 7, lockKeys: [] }, Date.now());
    await db.updateTable('tasks').set({ state: 'failed', error: 'it broke' }).execute();
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const user = await addUser(test, 'alice');
    const listed = await test.call('GET', '/v1/tasks?state=failed', { token: admin });
    expect((listed.body.data as { list: Task[] }).list.map((task) => task.id)).toEqual([newer, older]);
    expect((await test.call('GET', '/v1/tasks', { token: user })).status).toBe(403);
    expect((await test.call('PUT', `/v1/tasks/${newer}`, { token: user, body: { action: 'retry' } })).status).toBe(403);
    const stale = await test.call('PUT', `/v1/tasks/${older}`, { token: admin, body: { action: 'retry' } });
    expect(stale.body).toMatchObject({
      code: 'conflict',
      msg: `task ${older} was followed by task ${newer} on the same object; retry that one`,
    });
    const retried = await test.call('PUT', `/v1/tasks/${newer}`, { token: admin, body: { action: 'retry' } });
    expect(retried.body.data).toMatchObject({ id: newer, state: 'queued', error: '' });
    const twice = await test.call('PUT', '/v1/tasks', { token: admin, body: { ids: [newer], action: 'retry' } });
    expect(twice.body).toMatchObject({
      code: 'conflict',
      msg: `task ${newer} is queued; only a failed task can be retried`,
    });
  });
});
