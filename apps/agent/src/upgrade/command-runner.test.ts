import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SelfTestResult } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { MasterClient } from '../sync/master-client.ts';
import { mastersFile, savedMasters } from '../sync/master-list.ts';
import { CommandRunner } from './command-runner.ts';
import { ReleaseInstaller } from './release-installer.ts';

const SELF_TEST: SelfTestResult = {
  nginx_config_ok: true,
  nginx_running: true,
  nginx_output: '',
  disk_free_bytes: 1,
  disk_total_bytes: 2,
  applied_version: 3,
  agent_version: '1.0.0',
  time_ms: 4,
};

describe('agent commands', () => {
  let dataDir: string;
  let client: MasterClient;
  let runner: CommandRunner;
  const signal = new AbortController().signal;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'agent-commands-'));
    client = new MasterClient(['http://127.0.0.1:9/', 'http://127.0.0.1:10']);
    runner = new CommandRunner({
      client,
      credential: 'node-credential-0123456789',
      dataDir,
      installer: new ReleaseInstaller({ prefix: join(dataDir, 'no-such-prefix') }),
      selfTest: async () => SELF_TEST,
      onUpgraded: () => undefined,
      log: silentLogger,
    });
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('follows a new master address at once, in place of every master it knew, and keeps it (0600) for the next start', async () => {
    const answer = await runner.perform(
      { id: 1, kind: 'master-address', issued_at: 0, master: 'https://cdn2.example.com:8443' },
      signal,
    );
    expect(answer).toEqual({ state: 'done', log: 'now following https://cdn2.example.com:8443' });
    expect(client.baseUrl).toBe('https://cdn2.example.com:8443');
    expect(client.masters).toEqual(['https://cdn2.example.com:8443']);
    expect(await savedMasters(dataDir)).toEqual(['https://cdn2.example.com:8443']);
    expect(statSync(mastersFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(mastersFile(dataDir), 'utf8'))).toEqual({
      masters: ['https://cdn2.example.com:8443'],
    });
  });

  it('answers a self-test with its result, and a failed one with the reason', async () => {
    expect(await runner.perform({ id: 2, kind: 'self-test', issued_at: 0 }, signal)).toEqual({
      state: 'done',
      log: '',
      self_test: SELF_TEST,
    });
    const failing = new CommandRunner({
      client,
      credential: 'node-credential-0123456789',
      dataDir,
      installer: new ReleaseInstaller({ prefix: dataDir }),
      selfTest: async () => {
        throw new Error('statfs failed');
      },
      onUpgraded: () => undefined,
      log: silentLogger,
    });
    expect(await failing.perform({ id: 3, kind: 'self-test', issued_at: 0 }, signal)).toEqual({
      state: 'failed',
      log: 'statfs failed',
    });
  });

  it('reports an upgrade it could not download as failed, with nothing left behind', async () => {
    const answer = await runner.perform(
      { id: 4, kind: 'upgrade', issued_at: 0, release_id: 1, version: '2.0.0', sha256: 'a'.repeat(64), size: 10 },
      signal,
    );
    expect(answer.state).toBe('failed');
    expect(() => statSync(join(dataDir, 'upgrade', 'release-1.tar.gz'))).toThrow();
  });
});
