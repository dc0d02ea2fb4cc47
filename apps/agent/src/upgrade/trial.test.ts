import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { ReleaseInstaller } from './release-installer.ts';
import { MAX_TRIAL_STARTS, readTrial, startOnTrial, writeTrial } from './trial.ts';

describe('a new agent on trial', () => {
  let root: string;
  let installer: ReleaseInstaller;
  const install = (dir: string, version: string) => {
    mkdirSync(join(dir, 'apps/agent'), { recursive: true });
    writeFileSync(join(dir, 'apps/agent/package.json'), JSON.stringify({ version }));
  };
  const installedVersion = () =>
    JSON.parse(readFileSync(join(installer.prefix, 'apps/agent/package.json'), 'utf8')).version;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-trial-'));
    installer = new ReleaseInstaller({ prefix: join(root, 'rampart-agent') });
    install(installer.prefix, '2.0.0');
    install(installer.previous, '1.0.0');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('is left alone without a trial', async () => {
    expect(await startOnTrial(root, installer, silentLogger)).toBe(false);
    expect(installedVersion()).toBe('2.0.0');
  });

  it(`gives way to the previous agent after ${MAX_TRIAL_STARTS} starts that did not reach the master`, async () => {
    await writeTrial(root, {
      command_id: 5,
      version: '2.0.0',
      state: 'trial',
      starts: 0,
      log: ['health check passed'],
    });
    for (let start = 1; start <= MAX_TRIAL_STARTS; start++) {
      expect(await startOnTrial(root, installer, silentLogger)).toBe(false);
      expect((await readTrial(root))?.starts).toBe(start);
    }
    expect(await startOnTrial(root, installer, silentLogger)).toBe(true);
    expect(installedVersion()).toBe('1.0.0');
    const trial = await readTrial(root);
    expect(trial).toMatchObject({ command_id: 5, state: 'rolled_back' });
    expect(trial?.log.at(-1)).toBe(
      `the new agent started ${MAX_TRIAL_STARTS} times without reaching the master: rolled back to the previous agent`,
    );
    // The previous agent starts as usual; it reports the rollback once it reaches the master.
    expect(await startOnTrial(root, installer, silentLogger)).toBe(false);
  });
});
