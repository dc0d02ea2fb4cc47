import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentHealthCheck, ReleaseInstaller } from './release-installer.ts';

const GOOD_MAIN = "process.stdout.write('Usage: npm run agent -- --master URL\\n');\n";
const BAD_MAIN = "import './missing-module.ts';\n";

describe('agent release installer', () => {
  let root: string;
  let prefix: string;
  let installer: ReleaseInstaller;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-release-'));
    prefix = join(root, 'rampart-agent');
    // The installed agent: its runtime (a stand-in: the health check runs this test's node) and version 1.
    mkdirSync(join(prefix, 'node/bin'), { recursive: true });
    writeFileSync(join(prefix, 'node/bin/node'), 'runtime');
    mkdirSync(join(prefix, 'apps/agent/src'), { recursive: true });
    writeFileSync(join(prefix, 'apps/agent/src/main.ts'), GOOD_MAIN);
    writeFileSync(join(prefix, 'apps/agent/package.json'), '{"version":"1.0.0"}');
    installer = new ReleaseInstaller({ prefix, healthCheck: agentHealthCheck(process.execPath) });
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  /** A bundle as the master holds it (tar.gz of apps/agent), with what its upgrade command announces. */
  function bundle(main: string, version: string, extra: string[] = []) {
    const dir = mkdtempSync(join(root, 'src-'));
    mkdirSync(join(dir, 'apps/agent/src'), { recursive: true });
    writeFileSync(join(dir, 'apps/agent/src/main.ts'), main);
    writeFileSync(join(dir, 'apps/agent/package.json'), JSON.stringify({ version }));
    const file = join(root, `bundle-${version}.tar.gz`);
    execFileSync('tar', ['-czf', file, '-P', '-C', dir, 'apps', ...extra]);
    const bytes = readFileSync(file);
    return {
      file,
      expected: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, version },
    };
  }
  const installedVersion = (dir = prefix) =>
    JSON.parse(readFileSync(join(dir, 'apps/agent/package.json'), 'utf8')).version;

  it('verifies, switches and keeps the previous agent when the new one is healthy', async () => {
    const release = bundle(GOOD_MAIN, '2.0.0');
    const outcome = await installer.install(release.file, release.expected);
    expect(outcome.state, outcome.log.join('\n')).toBe('done');
    expect(outcome.log).toContain('health check passed');
    expect(installedVersion()).toBe('2.0.0');
    expect(installedVersion(`${prefix}.previous`)).toBe('1.0.0');
    // The runtime comes along from the installed agent: bundles carry the agent only.
    expect(readFileSync(join(prefix, 'node/bin/node'), 'utf8')).toBe('runtime');
    expect(existsSync(`${prefix}.new`)).toBe(false);
  });

  it('rolls back by itself when the new agent fails its health check', async () => {
    const release = bundle(BAD_MAIN, '2.0.1');
    const outcome = await installer.install(release.file, release.expected);
    expect(outcome.state).toBe('rolled_back');
    expect(outcome.log.join('\n')).toMatch(/health check failed: .*missing-module/s);
    expect(outcome.log.at(-1)).toBe('rolled back: the previous agent is back in place and passes its health check');
    expect(installedVersion()).toBe('1.0.0');
    expect(installedVersion(`${prefix}.failed`)).toBe('2.0.1');
    expect(existsSync(`${prefix}.previous`)).toBe(false);
  });

  it('counts a health check that cannot run as failed, and rolls back', async () => {
    let calls = 0;
    const throwing = new ReleaseInstaller({
      prefix,
      healthCheck: async (at) => {
        if (calls++ === 0) throw new Error('spawn EACCES');
        return agentHealthCheck(process.execPath)(at);
      },
    });
    const release = bundle(GOOD_MAIN, '2.0.2');
    const outcome = await throwing.install(release.file, release.expected);
    expect(outcome.state).toBe('rolled_back');
    expect(outcome.log).toContain('health check failed: spawn EACCES');
    expect(installedVersion()).toBe('1.0.0');
  });

  it('refuses a bundle whose checksum or size is not the announced one, changing nothing', async () => {
    const release = bundle(GOOD_MAIN, '2.0.0');
    const before = statSync(join(prefix, 'apps/agent/src/main.ts')).mtimeMs;
    const wrongSum = await installer.install(release.file, { ...release.expected, sha256: 'f'.repeat(64) });
    expect(wrongSum.state).toBe('failed');
    expect(wrongSum.log.at(-1)).toMatch(/^sha256 mismatch: got [0-9a-f]{64}, expected f{64}$/);
    const wrongSize = await installer.install(release.file, { ...release.expected, size: release.expected.size + 1 });
    expect(wrongSize.log.at(-1)).toMatch(/^the bundle has \d+ bytes, the master announced \d+$/);
    expect(installedVersion()).toBe('1.0.0');
    expect(statSync(join(prefix, 'apps/agent/src/main.ts')).mtimeMs).toBe(before);
    expect(existsSync(`${prefix}.previous`)).toBe(false);
  });

  it('refuses a bundle with paths outside its directory', async () => {
    writeFileSync(join(root, 'evil'), 'x');
    const release = bundle(GOOD_MAIN, '2.0.0', [join(root, 'evil')]);
    const outcome = await installer.install(release.file, release.expected);
    expect(outcome.state).toBe('failed');
    expect(outcome.log.at(-1)).toMatch(/^the bundle holds paths outside its directory: \//);
    expect(installedVersion()).toBe('1.0.0');
  });

  it('never replaces an agent that does not run from an installed prefix', async () => {
    rmSync(join(prefix, 'node'), { recursive: true });
    const release = bundle(GOOD_MAIN, '2.0.0');
    const outcome = await installer.install(release.file, release.expected);
    expect(outcome).toEqual({
      state: 'failed',
      log: [`${prefix} is not an installed agent (no node/bin/node): upgrade it by hand`],
    });
  });
});
