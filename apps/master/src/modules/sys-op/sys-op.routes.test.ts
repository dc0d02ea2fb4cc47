import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCheck, AgentCommand, AgentUpgradeList, AgentUpgradeLog, SysOpLogAnswer } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../auth/tokens.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A tar.gz holding `files`, made with tar from a scratch directory. */
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

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let round = 0; ; round++) {
    const value = await read();
    if (done(value) || round > 500) return value;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(DIALECTS)('/sys/op on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    // The PostgreSQL backup (pg_dump) needs the address the master was configured with.
    test = await startTestApp(target, {
      background: false,
      ...(target.url && { env: { RAMPART_DATABASE_URL: target.url } }),
    });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const data = <T>(result: { body: { code: number | string; msg: string; data: unknown } }) => {
    expect(result.body.msg).toBe('ok');
    return result.body.data as T;
  };

  async function addNode(name: string, version = '1.0.0') {
    const credential = randomBytes(24).toString('base64url');
    const now = Date.now();
    const row = await test.database.db
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
        agent_version: version,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, credential };
  }

  const nodeCall = async (method: 'GET' | 'POST', url: string, credential: string, body?: object) => {
    const response = await test.app.inject({
      method,
      url,
      headers: { 'node-token': credential },
      ...(body && { payload: body }),
    });
    const json = response.headers['content-type']?.toString().startsWith('application/json');
    return {
      status: response.statusCode,
      body: (json ? response.json() : {}) as { code: number | string; msg: string; data: unknown },
      raw: response,
    };
  };
  const commandsOf = async (credential: string) =>
    data<{ commands: AgentCommand[] }>(await nodeCall('GET', '/agent/v1/commands?wait=0', credential)).commands;

  const upload = (url: string, bytes: Buffer, token = admin) =>
    test.app.inject({
      method: 'POST',
      url,
      headers: { 'access-token': token, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });

  it('answers only administrators with admin:sys', async () => {
    const alice = await addUser(test, 'alice');
    for (const [method, url] of [
      ['GET', '/v1/agent/upgrades'],
      ['POST', '/v1/maintain/agent-check'],
      ['GET', '/v1/master/upgrades'],
      ['POST', '/v1/master/stop-transfer'],
      ['GET', '/v1/master/transfer-log'],
      ['GET', `/v1/master/backups/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`],
    ] as const) {
      const result = await test.call(method, url, { token: alice, body: method === 'POST' ? {} : undefined });
      expect(result.body.code, url).toBe('forbidden');
    }
  });

  it('runs a self-test on every agent and names what is wrong on each', async () => {
    const good = await addNode('edge-good');
    const bad = await addNode('edge-bad');
    const silent = await addNode('edge-silent');
    const started = test.call('POST', '/v1/maintain/agent-check', { token: admin, body: { wait: 30 } });
    const answer = async (node: { credential: string }, patch: object) => {
      const [command] = await until(
        () => commandsOf(node.credential),
        (list) => list.length > 0,
      );
      expect(command?.kind).toBe('self-test');
      const result = await nodeCall('POST', `/agent/v1/commands/${command?.id}/result`, node.credential, {
        state: 'done',
        log: '',
        self_test: {
          nginx_config_ok: true,
          nginx_running: true,
          nginx_output: '',
          disk_free_bytes: 50e9,
          disk_total_bytes: 100e9,
          applied_version: 1,
          agent_version: '1.0.0',
          time_ms: Date.now(),
          ...patch,
        },
      });
      expect(result.body.code).toBe(0);
    };
    await answer(good, {});
    await answer(bad, { nginx_running: false, disk_free_bytes: 1000, time_ms: Date.now() + 60_000 });
    const [silentCommand] = await commandsOf(silent.credential);
    await nodeCall('POST', `/agent/v1/commands/${silentCommand?.id}/result`, silent.credential, {
      state: 'failed',
      log: 'nginx binary missing',
    });
    const check = data<AgentCheck>(await started);
    const byName = new Map(check.nodes.map((node) => [node.name, node]));
    expect(byName.get('edge-good')).toMatchObject({ state: 'done', ok: true, problems: [] });
    const problems = byName.get('edge-bad')?.problems ?? [];
    expect(problems).toContain('nginx is not running');
    expect(problems.some((text) => text.startsWith('disk: 1000 bytes free'))).toBe(true);
    expect(problems.some((text) => text.startsWith('clock:'))).toBe(true);
    expect(byName.get('edge-silent')).toMatchObject({ state: 'failed', problems: ['nginx binary missing'] });
    expect(
      data<AgentCheck>(await test.call('GET', `/v1/maintain/agent-check/${check.id}`, { token: admin })).nodes,
    ).toHaveLength(3);
  });

  it('gives a node that missed a self-test only the newest one, and counts a minute without an answer as failed', async () => {
    const node = await addNode('edge-away');
    const first = data<AgentCheck>(
      await test.call('POST', '/v1/maintain/agent-check', { token: admin, body: { wait: 0 } }),
    );
    const second = data<AgentCheck>(
      await test.call('POST', '/v1/maintain/agent-check', { token: admin, body: { wait: 0 } }),
    );
    const commands = await commandsOf(node.credential);
    expect(commands).toHaveLength(1);
    expect(
      data<AgentCheck>(await test.call('GET', `/v1/maintain/agent-check/${first.id}`, { token: admin })).nodes[0],
    ).toMatchObject({
      state: 'failed',
    });
    expect(
      data<AgentCheck>(await test.call('GET', `/v1/maintain/agent-check/${second.id}`, { token: admin })).nodes[0],
    ).toMatchObject({
      state: 'pending',
    });
    // An offline node never answers: a minute on, its check reads as failed.
    await test.database.db
      .updateTable('agent_checks')
      .set({ created_at: Date.now() - 61_000 })
      .where('id', '=', second.id)
      .execute();
    expect(
      data<AgentCheck>(await test.call('GET', `/v1/maintain/agent-check/${second.id}`, { token: admin })).nodes[0],
    ).toMatchObject({ state: 'failed', problems: ['no answer within 60 s'] });
  });

  it('keeps agent releases only when their sha256 matches, naming the field otherwise', async () => {
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"2.0.0"}' });
    const wrong = await upload(`/v1/agent/upgrades/releases?version=2.0.0&sha256=${'0'.repeat(64)}`, bundle);
    expect(wrong.json()).toMatchObject({ code: 'invalid_param' });
    expect(wrong.json().msg).toMatch(/^sha256: /);
    const badVersion = await upload(`/v1/agent/upgrades/releases?version=../x&sha256=${sha256(bundle)}`, bundle);
    expect(badVersion.json()).toMatchObject({ code: 'invalid_param' });
    expect(badVersion.json().msg).toMatch(/version/);
    const noBody = await test.call('POST', `/v1/agent/upgrades/releases?version=2.0.0&sha256=${sha256(bundle)}`, {
      token: admin,
    });
    expect(noBody.body.code).toBe('invalid_param');
    const kept = await upload(`/v1/agent/upgrades/releases?version=2.0.0&sha256=${sha256(bundle)}`, bundle);
    expect(kept.json()).toMatchObject({
      code: 0,
      data: { version: '2.0.0', sha256: sha256(bundle), size: bundle.length },
    });
    const again = await upload(`/v1/agent/upgrades/releases?version=2.0.0&sha256=${sha256(bundle)}`, bundle);
    expect(again.json().code).toBe('conflict');
    const list = data<AgentUpgradeList>(await test.call('GET', '/v1/agent/upgrades', { token: admin }));
    expect(list.releases.map((release) => release.version)).toEqual(['2.0.0']);
  });

  it('rolls an upgrade out one node first, then in waves, counting rollbacks, and halts past the allowed failures', async () => {
    const nodes: { id: number; credential: string }[] = [];
    for (let i = 1; i <= 5; i++) nodes.push(await addNode(`edge-${i}`));
    const bundle = tarball({ 'apps/agent/package.json': '{"version":"2.0.0"}' });
    const release = (await upload(`/v1/agent/upgrades/releases?version=2.0.0&sha256=${sha256(bundle)}`, bundle)).json()
      .data as { id: number };
    const invalid = await test.call('POST', '/v1/agent/upgrades', {
      token: admin,
      body: { release_id: release.id, wave_percent: 0 },
    });
    expect(invalid.body.code).toBe('invalid_param');
    expect(invalid.body.msg).toMatch(/wave_percent/);
    const started = data<AgentUpgradeLog>(
      await test.call('POST', '/v1/agent/upgrades', {
        token: admin,
        body: { release_id: release.id, wave_percent: 40, max_failures: 1 },
      }),
    );
    expect(started.upgrade).toMatchObject({
      state: 'running',
      wave: 0,
      progress: { total: 5, running: 1, waiting: 4 },
    });

    // Every node polls, then the ones given a command answer: the wave they belong to.
    const answerAll = async (state: (index: number) => 'done' | 'rolled_back') => {
      let answered = 0;
      const given = await Promise.all(nodes.map((node) => commandsOf(node.credential)));
      for (const [index, node] of nodes.entries()) {
        for (const command of given[index] ?? []) {
          expect(command.kind).toBe('upgrade');
          if (command.kind !== 'upgrade') continue;
          const bundleAnswer = await nodeCall(
            'GET',
            `/agent/v1/releases/${command.release_id}/bundle`,
            node.credential,
          );
          expect(sha256(bundleAnswer.raw.rawPayload)).toBe(command.sha256);
          await nodeCall('POST', `/agent/v1/commands/${command.id}/result`, node.credential, {
            state: state(index),
            log: `node ${index}`,
          });
          answered++;
        }
      }
      return answered;
    };
    expect(await answerAll(() => 'done')).toBe(1);
    // 40% of five nodes per wave: two at a time.
    expect(await answerAll((index) => (index === 1 ? 'rolled_back' : 'done'))).toBe(2);
    const log = data<AgentUpgradeLog>(
      await test.call('GET', `/v1/agent/upgrades/log/${started.upgrade.id}`, { token: admin }),
    );
    expect(log.upgrade).toMatchObject({ state: 'running', wave: 2, progress: { done: 2, rolled_back: 1, running: 2 } });
    expect(log.nodes.find((node) => node.name === 'edge-2')).toMatchObject({
      state: 'rolled_back',
      wave: 1,
      log: 'node 1',
      from_version: '1.0.0',
    });
    expect(await answerAll(() => 'rolled_back')).toBe(2);
    const halted = data<AgentUpgradeLog>(
      await test.call('GET', `/v1/agent/upgrades/log/${started.upgrade.id}`, { token: admin }),
    );
    expect(halted.upgrade.state).toBe('halted');
    expect(halted.upgrade.reason).toBe('2 nodes failed or rolled back; the rollout allows 1');
    const versions = await test.database.db
      .selectFrom('nodes')
      .select(['name', 'agent_version'])
      .orderBy('name')
      .execute();
    expect(versions.map((node) => node.agent_version)).toEqual(['2.0.0', '1.0.0', '2.0.0', '1.0.0', '1.0.0']);
    // A node not sent the release cannot fetch it.
    expect(
      (await nodeCall('GET', `/agent/v1/releases/${release.id}/bundle`, nodes[0]?.credential ?? '')).body.code,
    ).toBe('not_found');
    expect((await test.call('GET', '/v1/agent/upgrades/log/999', { token: admin })).body.code).toBe('not_found');
  });

  it('upgrades the master from a bundle after backing the database up, and logs each step', async () => {
    const bundle = tarball({ 'apps/master/package.json': '{"version":"9.9.9"}', 'apps/master/src/server.ts': '' });
    const wrong = await upload(`/v1/master/upgrades?version=9.9.9&sha256=${sha256(Buffer.from('x'))}`, bundle);
    expect(wrong.json().code).toBe('invalid_param');
    const started = await upload(`/v1/master/upgrades?version=9.9.9&sha256=${sha256(bundle)}`, bundle);
    expect(started.json().code).toBe(0);
    const { id } = started.json().data as { id: number };
    const log = await until(
      async () => data<SysOpLogAnswer>(await test.call('GET', `/v1/master/upgrades/log?id=${id}`, { token: admin })).op,
      (op) => op?.state === 'done' || op?.state === 'failed',
    );
    expect(log?.state, JSON.stringify(log?.log)).toBe('done');
    const backupLine = log?.log.find((line) => line.text.startsWith('backup written: '))?.text ?? '';
    if (target.dialect === 'sqlite') {
      // One master on SQLite: the copy is a file in its data directory.
      const file = backupLine.slice('backup written: '.length).split(' (')[0] ?? '';
      expect(existsSync(file)).toBe(true);
      expect(backupLine).toContain('VACUUM INTO');
    } else {
      // In the database, where any master serves it.
      const path = /GET (\/v1\/master\/backups\/[0-9a-f-]+)/.exec(backupLine)?.[1] ?? '';
      expect(backupLine).toContain('pg_dump');
      const dump = await test.app.inject({ method: 'GET', url: path, headers: { 'access-token': admin } });
      expect(dump.statusCode).toBe(200);
      expect(dump.rawPayload.subarray(0, 5).toString()).toBe('PGDMP');
      expect(Number(dump.headers['content-length'])).toBe(dump.rawPayload.length);
      // The blob store's content is left out: each backup would hold every earlier one otherwise.
      const listed = execFileSync('pg_restore', ['--list'], { input: dump.rawPayload }).toString();
      expect(listed).toMatch(/TABLE DATA \S+ agent_releases /);
      expect(listed).not.toMatch(/TABLE DATA \S+ blob/);
    }
    const current = join(test.database.dataDir, 'master-current');
    expect(readFileSync(join(current, 'apps/master/package.json'), 'utf8')).toContain('9.9.9');
    expect(readlinkSync(current)).toBe(join('releases', 'master', String(id)));

    // A bundle whose version is not the one announced is refused, and the link stays.
    const other = tarball({ 'apps/master/package.json': '{"version":"1.0.0"}' });
    const mismatch = (await upload(`/v1/master/upgrades?version=9.9.10&sha256=${sha256(other)}`, other)).json()
      .data as { id: number };
    const failed = await until(
      async () =>
        data<SysOpLogAnswer>(await test.call('GET', `/v1/master/upgrades/log?id=${mismatch.id}`, { token: admin })).op,
      (op) => op?.state === 'done' || op?.state === 'failed',
    );
    expect(failed?.state).toBe('failed');
    expect(failed?.log.at(-1)?.text).toBe('the bundle is version 1.0.0, not 9.9.10');
    expect(readlinkSync(current)).toBe(join('releases', 'master', String(id)));
    const list = data<{ list: { id: number }[]; current_version: string }>(
      await test.call('GET', '/v1/master/upgrades', { token: admin }),
    );
    // The upload refused for its checksum is listed too, as failed.
    expect(list.list.map((op) => op.id)).toEqual([mismatch.id, id, id - 1]);
  });

  describe('transfer', () => {
    let newMaster: Server;
    let address = '';
    beforeEach(async () => {
      newMaster = createServer((_request, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ code: 0, msg: 'ok', data: {} }));
      });
      await new Promise<void>((resolve) => newMaster.listen(0, '127.0.0.1', resolve));
      const port = (newMaster.address() as { port: number }).port;
      address = `http://127.0.0.1:${port}`;
    });
    afterEach(async () => {
      await new Promise((resolve) => newMaster.close(resolve));
    });

    it('exports the database, tells the agents the new address once it answers, and logs it', async () => {
      const node = await addNode('edge-1');
      expect(
        (await test.call('POST', '/v1/master/start-transfer', { token: admin, body: { new_master: 'http://a b' } }))
          .body.msg,
      ).toMatch(/new_master/);
      expect(
        data<{ id: number }>(
          await test.call('POST', '/v1/master/start-transfer', { token: admin, body: { new_master: address } }),
        ).id,
      ).toBeGreaterThan(0);
      expect(
        (await test.call('POST', '/v1/master/start-transfer', { token: admin, body: { new_master: address } })).body
          .code,
      ).toBe('conflict');
      const [command] = await until(
        () => commandsOf(node.credential),
        (list) => list.length > 0,
      );
      expect(command).toMatchObject({ kind: 'master-address', master: address });
      await nodeCall('POST', `/agent/v1/commands/${command?.id}/result`, node.credential, { state: 'done', log: '' });
      const op = await until(
        async () => data<SysOpLogAnswer>(await test.call('GET', '/v1/master/transfer-log', { token: admin })).op,
        (value) => value?.state === 'done',
      );
      expect(op?.state).toBe('done');
      expect(op?.log.map((line) => line.text).join('\n')).toMatch(
        /export written: .*\n.*agents told the new address\n1 of 1 agents follow/,
      );
    });

    it('stops a transfer that waits for its new master; no agent is told', async () => {
      const node = await addNode('edge-1');
      await new Promise((resolve) => newMaster.close(resolve));
      newMaster = createServer();
      await test.call('POST', '/v1/master/start-transfer', { token: admin, body: { new_master: address } });
      await until(
        async () => data<SysOpLogAnswer>(await test.call('GET', '/v1/master/transfer-log', { token: admin })).op,
        (value) => value?.state === 'waiting',
      );
      expect((await test.call('POST', '/v1/master/stop-transfer', { token: admin })).body.code).toBe(0);
      const op = data<SysOpLogAnswer>(await test.call('GET', '/v1/master/transfer-log', { token: admin })).op;
      expect(op?.state).toBe('aborted');
      expect(op?.log.at(-1)?.text).toBe('stopped by an administrator; no agent was moved');
      expect(await commandsOf(node.credential)).toEqual([]);
      expect((await test.call('POST', '/v1/master/stop-transfer', { token: admin })).body.code).toBe('conflict');
    });
  });
});
