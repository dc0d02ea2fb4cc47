import { PERMISSIONS } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import type { Notice } from '../messages/notifier.ts';
import { insertUser } from '../users/users.repository.ts';
import { clockOffsetSeconds, isClockSkewed, noteClockOffset } from './clock-offset.ts';
import { findNode } from './nodes.repository.ts';

describe('clockOffsetSeconds', () => {
  it('is zero for a report taken in the same second it arrives', () => {
    expect(clockOffsetSeconds(1_800_000_000, 1_800_000_000_400)).toBe(0);
    expect(clockOffsetSeconds(1_800_000_000, 1_800_000_000_900)).toBe(0);
  });

  it('is positive for a node ahead of the master and negative for one behind', () => {
    expect(clockOffsetSeconds(1_800_000_600, 1_800_000_000_300)).toBe(600);
    expect(clockOffsetSeconds(1_799_999_955, 1_800_000_000_500)).toBe(-45);
  });

  it('warns past 30 seconds either way, not at 30', () => {
    expect(isClockSkewed(30)).toBe(false);
    expect(isClockSkewed(-30)).toBe(false);
    expect(isClockSkewed(31)).toBe(true);
    expect(isClockSkewed(-600)).toBe(true);
  });
});

describe.each(DIALECTS)('the clock offset of a node on $dialect', (target) => {
  let test: TestApp;
  let told: { userId: number; notice: Notice }[];
  const notifier = {
    notify: async (userId: number, _type: string, notice: Notice) => {
      told.push({ userId, notice });
      return { message_id: null, email: 'skipped', sms: 'skipped', webhook: 'skipped' };
    },
  };
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    told = [];
  });
  afterEach(async () => {
    await test.close();
  });

  const addNode = async () => {
    const now = Date.now();
    const row = await test.database.db
      .insertInto('nodes')
      .values({
        name: 'edge-skewed',
        ips: JSON.stringify(['203.0.113.9']),
        group_id: null,
        region_id: null,
        enabled: 1,
        http_port: 80,
        https_port: 443,
        max_cache_size_mb: 1024,
        credential_hash: 'clock-offset-test-credential',
        applied_version: 0,
        last_seen_at: now,
        last_error: '',
        dropped_log_lines: 0,
        agent_version: 'test',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  /** One report's offset, as the metrics route notes it (with the row as it reads it). */
  const report = async (nodeId: number, offset: number) => {
    const node = await findNode(test.database.db, nodeId);
    if (!node) throw new Error('no node');
    await noteClockOffset({ db: test.database.db, notifier, log: test.app.log }, node, offset);
    return findNode(test.database.db, nodeId);
  };

  it('keeps the offset and tells the admins holding admin:node once, the first time it passes the threshold', async () => {
    const now = Date.now();
    const { db } = test.database;
    const nodeAdmin = await insertUser(
      db,
      { username: 'node-admin', passwordHash: 'x', type: 1, access: [PERMISSIONS.adminNode] },
      now,
    );
    await insertUser(db, { username: 'site-admin', passwordHash: 'x', type: 1, access: [PERMISSIONS.adminSys] }, now);
    await insertUser(db, { username: 'customer', passwordHash: 'x', type: 2, access: [PERMISSIONS.adminNode] }, now);
    const admins = await db.selectFrom('users').select(['id', 'access']).where('type', '=', 1).execute();
    const expected = admins
      .filter((row) => (JSON.parse(row.access) as string[]).includes(PERMISSIONS.adminNode))
      .map((row) => Number(row.id));
    expect(expected).toContain(Number(nodeAdmin.id));
    const nodeId = await addNode();

    expect((await report(nodeId, 2))?.clock_offset_seconds).toBe(2);
    expect(told).toEqual([]);

    expect((await report(nodeId, 600))?.clock_offset_seconds).toBe(600);
    expect(told.map((entry) => entry.userId).sort()).toEqual(expected.sort());
    expect(told[0]?.notice).toEqual({
      title: 'The clock of node edge-skewed is off',
      body: expect.stringContaining("10 minutes ahead of the master's"),
    });
    await report(nodeId, 601);
    await report(nodeId, 600);
    expect(told).toHaveLength(expected.length);
  });

  it('tells a new episode again once the clock was back under the threshold', async () => {
    const nodeId = await addNode();
    await report(nodeId, -45);
    const first = told.length;
    expect(first).toBeGreaterThan(0);
    expect(told[0]?.notice.body).toContain("45 seconds behind the master's");
    const back = await report(nodeId, 1);
    expect(back?.clock_skew_noticed_at).toBeNull();
    await report(nodeId, -300);
    expect(told).toHaveLength(2 * first);
  });
});
