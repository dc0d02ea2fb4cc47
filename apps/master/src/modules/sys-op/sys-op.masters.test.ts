import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCommand, AgentRelease, SysOpLogAnswer } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { readConfig } from '../../config.ts';
import { type DatabaseHandle, openDatabase } from '../../db/database.ts';
import { type EventStore, openEventStore } from '../../db/events.ts';
import type { App } from '../../http.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../auth/tokens.ts';
import { releaseLease } from '../cluster/leases.ts';
import { advanceRound, advanceUpgrade, ROLLOUT_LEASE } from './agent-upgrades.service.ts';
import { agentBundlePath } from './bundle-store.ts';
import { importLegacyReleases } from './legacy-releases.ts';
import { compareVersions } from './master-upgrade.service.ts';
import { sysOpState } from './sys-op-state.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function tarball(files: Record<string, string>): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'sys-op-bundle-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    execFileSync('tar', ['-czf', join(dir, 'bundle.tar.gz'), '-C', dir, ...Object.keys(files)]);
    return readFileSync(join(dir, 'bundle.tar.gz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads until `done` holds; the last value otherwise (the caller's expectation then fails). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A second master on the first one's database, with a data directory of its own: on PostgreSQL
 * through a connection pool of its own (as another host would); SQLite serves one master, so there
 * it shares the first one's handle.
 */
async function secondMaster(first: TestApp, target: { dialect: string; url?: string }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampart-second-master-'));
  // Masters on one database share the data directory's secret key.
  copyFileSync(join(first.database.dataDir, 'secret.key'), join(dataDir, 'secret.key'));
  let handle: DatabaseHandle = first.database;
  let own = false;
  if (target.url) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(first.database.db);
    handle = openDatabase({ dataDir, url: target.url, schema: rows[0]?.schema });
    own = true;
  }
  const config = readConfig({
    RAMPART_DATA_DIR: dataDir,
    RAMPART_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...(target.url && { RAMPART_DATABASE_URL: target.url }),
  });
  const events: EventStore = await openEventStore(config.logsUrl, handle.logs);
  const app: App = await buildApp(config, { logger: false, database: handle, events, background: false });
  return {
    app,
    db: handle.db,
    dataDir,
    async close() {
      await app.close();
      if (own) {
        await events.close();
        await handle.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DIALECTS)('/sys/op with two masters on $dialect', (target) => {
  let first: TestApp;
  let second: Awaited<ReturnType<typeof secondMaster>>;
  let admin: string;
  beforeEach(async () => {
    first = await startTestApp(target, {
      background: false,
      codeChannels: false,
      ...(target.url && { env: { RAMPART_DATABASE_URL: target.url } }),
    });
    second = await secondMaster(first, target);
    admin = await first.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await second.close();
    await first.close();
  });

  async function addNode(name: string) {
    const credential = randomBytes(24).toString('base64url');
    const now = Date.now();
    const row = await first.database.db
      .insertInto('nodes')
      .values({
        name,
        ips: JSON.stringify([{ ip: '192.0.2.1', enabled: true }]),
        group_id: null,
        region_id: null,
        enabled: 1,
        http_port: 80,
        https_port: 443,
        max_cache_size_mb: 1024,
        credential_hash: hashToken(credential),
        applied_version: 0,
        last_seen_at: null,
        last_error: '',
        dropped_log_lines: 0,
        agent_version: '1.0.0',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, credential };
  }

  const upload = (app: App, url: string, bytes: Buffer) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'access-token': admin, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  const call = async (app: App, method: 'GET' | 'POST', url: string, body?: object) =>
    (await app.inject({ method, url, headers: { 'access-token': admin }, ...(body && { payload: body }) })).json() as {
      code: number | string;
      msg: string;
      data: unknown;
    };

  it('serves a release one master received from another, out of the database', async () => {
    const node = await addNode('edge-1');
    // Several chunks, so the answer is streamed from more than one row.
    const bundle = randomBytes(2 * 1024 * 1024 + 777);
    const kept = await upload(first.app, `/v1/agent/upgrades/releases?version=3.0.0&sha256=${sha256(bundle)}`, bundle);
    const release = kept.json().data as AgentRelease;
    expect(release).toMatchObject({ version: '3.0.0', size: bundle.length });
    const started = await call(second.app, 'POST', '/v1/agent/upgrades', { release_id: release.id });
    expect(started.code).toBe(0);
    const polled = await second.app.inject({
      method: 'GET',
      url: '/agent/v1/commands?wait=0',
      headers: { 'node-token': node.credential },
    });
    const [command] = (polled.json().data as { commands: AgentCommand[] }).commands;
    expect(command).toMatchObject({ kind: 'upgrade', release_id: release.id, sha256: sha256(bundle) });
    const fetched = await second.app.inject({
      method: 'GET',
      url: `/agent/v1/releases/${release.id}/bundle`,
      headers: { 'node-token': node.credential },
    });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-length']).toBe(String(bundle.length));
    expect(fetched.rawPayload.equals(bundle)).toBe(true);
    // Neither master keeps it on disk.
    for (const dir of [first.database.dataDir, second.dataDir]) {
      expect(existsSync(join(dir, 'releases', 'agent'))).toBe(false);
    }
  });

  it('keeps nothing of a refused upload', async () => {
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"3.0.0"}' });
    const wrong = sha256(Buffer.from('another bundle'));
    expect(
      (await upload(first.app, `/v1/agent/upgrades/releases?version=3.0.0&sha256=${wrong}`, bundle)).json(),
    ).toMatchObject({ code: 'invalid_param' });
    expect(
      (
        await upload(
          first.app,
          `/v1/agent/upgrades/releases?version=3.0.0&sha256=${sha256(Buffer.alloc(0))}`,
          Buffer.alloc(0),
        )
      ).json(),
    ).toMatchObject({ code: 'invalid_param' });
    expect(
      (await upload(second.app, `/v1/master/upgrades?version=9.9.9&sha256=${wrong}`, bundle)).json(),
    ).toMatchObject({ code: 'invalid_param' });
    const db = first.database.db;
    expect(await db.selectFrom('blobs').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('blob_chunks').select('blob_id').execute()).toEqual([]);
    expect(await db.selectFrom('agent_releases').selectAll().execute()).toEqual([]);
    const op = await db.selectFrom('sys_ops').select(['state', 'blob_id']).executeTakeFirst();
    expect(op).toEqual({ state: 'failed', blob_id: null });
  });

  it('starts one rollout when administrators start one on both masters at the same moment', async () => {
    for (let i = 1; i <= 2; i++) await addNode(`edge-${i}`);
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"3.0.0"}' });
    const release = (
      await upload(first.app, `/v1/agent/upgrades/releases?version=3.0.0&sha256=${sha256(bundle)}`, bundle)
    ).json().data as AgentRelease;
    const answers = await Promise.all(
      [first.app, second.app, first.app, second.app].map((app) =>
        call(app, 'POST', '/v1/agent/upgrades', { release_id: release.id }),
      ),
    );
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.code !== 0)) {
      expect(answer.code, answer.msg).toBe('conflict');
      expect(answer.msg).toMatch(/still running|has just started/);
    }
    const running = await first.database.db
      .selectFrom('agent_upgrades')
      .select('id')
      .where('state', '=', 'running')
      .execute();
    expect(running).toHaveLength(1);
    // Each node was sent the one rollout's commands only.
    const commands = await first.database.db.selectFrom('agent_commands').select('ref_id').distinct().execute();
    expect(commands).toEqual([{ ref_id: running[0]?.id }]);
  });

  it('sends each wave once when both masters advance a rollout at the same time', async () => {
    for (let i = 1; i <= 6; i++) await addNode(`edge-${i}`);
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"3.0.0"}' });
    const release = (
      await upload(first.app, `/v1/agent/upgrades/releases?version=3.0.0&sha256=${sha256(bundle)}`, bundle)
    ).json().data as AgentRelease;
    const started = await call(first.app, 'POST', '/v1/agent/upgrades', { release_id: release.id, wave_percent: 20 });
    const id = (started.data as { upgrade: { id: number } }).upgrade.id;
    const db = first.database.db;
    const masters = [first.database.db, second.db].map((handle) => ({ db: handle, bus: sysOpState(handle).bus }));
    const sizes: number[] = [];
    for (let round = 0; round < 10; round++) {
      const upgrade = await db.selectFrom('agent_upgrades').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (upgrade.state !== 'running') break;
      const commands = await db
        .selectFrom('agent_commands')
        .select(['state', 'wave'])
        .where('kind', '=', 'upgrade')
        .where('ref_id', '=', id)
        .execute();
      const pending = commands.filter((command) => command.state === 'pending');
      // What one master sent, once: every command in flight is of the rollout's current wave.
      expect(pending.every((command) => command.wave === upgrade.wave)).toBe(true);
      sizes.push(pending.length);
      // The wave answers (written as a node's answer is), then every master advances at once.
      await db
        .updateTable('agent_commands')
        .set({ state: 'done', updated_at: Date.now() })
        .where('kind', '=', 'upgrade')
        .where('ref_id', '=', id)
        .where('state', '=', 'pending')
        .execute();
      await Promise.all(
        [...masters, ...masters, ...masters].map((master) => advanceUpgrade(master.db, master.bus, id)),
      );
    }
    // One node, then 20% of six (two) per wave.
    expect(sizes).toEqual([1, 2, 2, 1]);
    const done = await db.selectFrom('agent_upgrades').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ state: 'done', wave: 3 });
  });

  // A transaction of another master holding the rollout's row is seen only on PostgreSQL; SQLite
  // serves one master.
  it.skipIf(!target.url)('waits for another master that holds the rollout, then reads what it wrote', async () => {
    for (let i = 1; i <= 3; i++) await addNode(`edge-${i}`);
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"3.0.0"}' });
    const release = (
      await upload(first.app, `/v1/agent/upgrades/releases?version=3.0.0&sha256=${sha256(bundle)}`, bundle)
    ).json().data as AgentRelease;
    const started = await call(first.app, 'POST', '/v1/agent/upgrades', { release_id: release.id });
    const id = (started.data as { upgrade: { id: number } }).upgrade.id;
    const db = first.database.db;
    await db.updateTable('agent_commands').set({ state: 'done' }).where('state', '=', 'pending').execute();
    let advancing: Promise<void> | undefined;
    let settled = false;
    // The second master halts the rollout in a transaction of its own; the first advances it meanwhile.
    await second.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('agent_upgrades')
        .set({ state: 'halted', reason: 'halted elsewhere' })
        .where('id', '=', id)
        .execute();
      advancing = advanceUpgrade(db, sysOpState(db).bus, id).finally(() => {
        settled = true;
      });
      const holder = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
      // Until the first master's advance waits for this transaction (or, were it not to, has ended).
      await eventually(
        async () =>
          settled ||
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where ${holder} = any(pg_blocking_pids(pid))`.execute(db)
          ).rows[0]?.n === 1,
        (done) => done,
      );
      expect(settled).toBe(false);
    });
    await advancing;
    const upgrade = await db.selectFrom('agent_upgrades').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(upgrade).toMatchObject({ state: 'halted', wave: 0 });
    const sent = await db.selectFrom('agent_commands').select('node_id').where('state', '=', 'pending').execute();
    expect(sent).toEqual([]);
  });

  it('runs the periodic rollout round on one master at a time', async () => {
    const [a, b] = [first.database.db, second.db].map((db) => ({ db, bus: sysOpState(db).bus }));
    if (!a || !b) throw new Error('two masters expected');
    await releaseLease(a.db, ROLLOUT_LEASE, '');
    const rounds = await Promise.all([
      advanceRound(a.db, a.bus, 'master-a', 60_000),
      advanceRound(b.db, b.bus, 'master-b', 60_000),
    ]);
    expect(rounds.filter(Boolean)).toHaveLength(1);
    const holder = rounds[0] ? 'master-a' : 'master-b';
    const other = rounds[0] ? b : a;
    expect(await advanceRound(other.db, other.bus, holder === 'master-a' ? 'master-b' : 'master-a', 60_000)).toBe(
      false,
    );
    await releaseLease(a.db, ROLLOUT_LEASE, holder);
    expect(await advanceRound(other.db, other.bus, holder === 'master-a' ? 'master-b' : 'master-a', 60_000)).toBe(true);
  });

  it('installs a master release another master received on its own host too, from the database', async () => {
    const bundle = tarball({ 'apps/master/package.json': '{"version":"9.9.9"}', 'apps/master/src/server.ts': '' });
    const started = await upload(first.app, `/v1/master/upgrades?version=9.9.9&sha256=${sha256(bundle)}`, bundle);
    const { id } = started.json().data as { id: number };
    const releaseDir = join('releases', 'master', String(id));
    // The second master's round finds the release and installs it where it runs.
    const secondCurrent = join(second.dataDir, 'master-current');
    const log = await eventually(
      async () => (await call(second.app, 'GET', `/v1/master/upgrades/log?id=${id}`)).data as SysOpLogAnswer,
      (answer) => answer.op?.log.some((line) => line.text.includes('restart the master service there')) ?? false,
    );
    const lines = log.op?.log.map((line) => line.text) ?? [];
    expect(log.op?.state).toBe('done');
    expect(readlinkSync(join(first.database.dataDir, 'master-current'))).toBe(releaseDir);
    expect(readlinkSync(secondCurrent)).toBe(releaseDir);
    expect(readFileSync(join(secondCurrent, 'apps/master/package.json'), 'utf8')).toContain('9.9.9');
    const host = `${hostname()} (${second.dataDir})`;
    expect(lines.filter((line) => line.startsWith(`${host}: `))).toEqual([
      `${host}: unpacked 2 entries into ${join(second.dataDir, releaseDir)}`,
      `${host}: ${secondCurrent} now points at release 9.9.9`,
      `${host}: restart the master service there to run the new release`,
    ]);

    // A newer upgrade done: the older bundle is no longer needed by any master.
    const newer = tarball({ 'apps/master/package.json': '{"version":"9.9.10"}' });
    const next = (await upload(first.app, `/v1/master/upgrades?version=9.9.10&sha256=${sha256(newer)}`, newer)).json()
      .data as { id: number };
    const ops = await eventually(
      () => first.database.db.selectFrom('sys_ops').select(['id', 'state', 'blob_id']).orderBy('id').execute(),
      (rows) => rows.every((row) => row.state === 'done'),
    );
    expect(ops.map((op) => [op.id, op.blob_id !== null])).toEqual([
      [id, false],
      [next.id, true],
    ]);
    const bundles = await first.database.db
      .selectFrom('blobs')
      .select('id')
      .where('kind', '=', 'master-bundle')
      .execute();
    expect(bundles).toEqual([{ id: ops[1]?.blob_id }]);
  });

  it('moves agent bundles kept on disk before the blob store into it, for every master to serve', async () => {
    const node = await addNode('edge-1');
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"2.0.0"}' });
    const rows = await first.database.db
      .insertInto('agent_releases')
      .values([
        { version: '2.0.0', sha256: sha256(bundle), size: bundle.length, source: 'upload', created_at: Date.now() },
        { version: '2.0.1', sha256: sha256(bundle), size: bundle.length, source: 'upload', created_at: Date.now() },
      ])
      .returning('id')
      .execute();
    const [good, damaged] = rows.map((row) => row.id);
    if (good === undefined || damaged === undefined) throw new Error('two releases expected');
    mkdirSync(join(first.database.dataDir, 'releases', 'agent'), { recursive: true });
    writeFileSync(agentBundlePath(first.database.dataDir, good), bundle);
    writeFileSync(agentBundlePath(first.database.dataDir, damaged), Buffer.concat([bundle, Buffer.from('x')]));
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (_context: object, text: string) => void warnings.push(text) };
    // The second master holds no file: it moves nothing.
    expect(await importLegacyReleases(second.db, second.dataDir, log)).toBe(0);
    expect(await importLegacyReleases(first.database.db, first.database.dataDir, log)).toBe(1);
    expect(await importLegacyReleases(first.database.db, first.database.dataDir, log)).toBe(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`agent release 2.0.1: ${agentBundlePath(first.database.dataDir, damaged)}`);

    const started = await call(first.app, 'POST', '/v1/agent/upgrades', { release_id: good });
    expect(started.code).toBe(0);
    await second.app.inject({
      method: 'GET',
      url: '/agent/v1/commands?wait=0',
      headers: { 'node-token': node.credential },
    });
    const fetched = await second.app.inject({
      method: 'GET',
      url: `/agent/v1/releases/${good}/bundle`,
      headers: { 'node-token': node.credential },
    });
    expect(fetched.rawPayload.equals(bundle)).toBe(true);
  });
});

describe('release versions', () => {
  it('order as releases do', () => {
    const ordered = [
      '0.1.0',
      '0.9.9',
      '0.10.0',
      '1.0.0-rc.1',
      '1.0.0-rc.2',
      '1.0.0-rc.10',
      '1.0.0',
      '1.0.1',
      '1.0.1+b2',
    ];
    for (const [index, version] of ordered.entries()) {
      const next = ordered[index + 1];
      if (next && !(version === '1.0.1' && next === '1.0.1+b2'))
        expect(compareVersions(version, next), `${version} < ${next}`).toBe(-1);
    }
    expect(compareVersions('1.0.1', '1.0.1+b2')).toBe(0);
    expect(compareVersions('2.0', '2.0.0')).toBe(0);
  });
});
