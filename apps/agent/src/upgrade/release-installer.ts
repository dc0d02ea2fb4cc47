import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where the running agent is installed: install.sh lays the bundle out under /opt/rampart-agent. */
export const RUNNING_PREFIX = resolve(import.meta.dirname, '../../../..');

/** The runtime install.sh puts beside the agent; a bundle carries the agent only. */
const NODE_IN_PREFIX = join('node', 'bin', 'node');

export interface HealthResult {
  ok: boolean;
  output: string;
}

/**
 * Starts the agent installed at `prefix` far enough to load every module and parse its options, on
 * the runtime installed beside it (or `node`).
 */
export function agentHealthCheck(node?: string): (prefix: string) => Promise<HealthResult> {
  return (prefix) =>
    new Promise((done) => {
      execFile(
        node ?? join(prefix, NODE_IN_PREFIX),
        [join(prefix, 'apps/agent/src/main.ts'), '--help'],
        { timeout: 60_000, maxBuffer: 1024 * 1024 },
        (error, stdout, stderr) => {
          const output = `${stdout}${stderr}`.slice(-2000);
          done({
            ok: !error && String(stdout).startsWith('Usage:'),
            output: error ? `${error.message}\n${output}` : output,
          });
        },
      );
    });
}

export interface InstallOutcome {
  state: 'done' | 'failed' | 'rolled_back';
  log: string[];
}

export interface ReleaseInstallerOptions {
  /** The installed agent: replaced by the release, kept as `<prefix>.previous`. */
  prefix: string;
  healthCheck?: (prefix: string) => Promise<HealthResult>;
}

export const sha256File = (file: string) =>
  new Promise<string>((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });

function tar(args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile('tar', args, { timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? fail(new Error(`tar: ${String(stderr).trim().slice(0, 500) || error.message}`)) : done(String(stdout)),
    );
  });
}

/**
 * Installs an agent release bundle: checks its sha256, unpacks it beside the installed agent,
 * switches (the installed one becomes `<prefix>.previous`), and runs the new agent's health check;
 * when that fails, the previous agent is put back and the new one kept as `<prefix>.failed`.
 */
export class ReleaseInstaller {
  readonly prefix: string;
  private readonly healthCheck: (prefix: string) => Promise<HealthResult>;

  constructor(options: ReleaseInstallerOptions) {
    this.prefix = options.prefix;
    this.healthCheck = options.healthCheck ?? agentHealthCheck();
  }

  get previous(): string {
    return `${this.prefix}.previous`;
  }

  /** Whether this agent runs from an installed prefix (a checkout is never replaced). */
  installed(): boolean {
    return existsSync(join(this.prefix, NODE_IN_PREFIX)) && existsSync(join(this.prefix, 'apps/agent/src/main.ts'));
  }

  async install(bundle: string, expected: { sha256: string; size: number; version: string }): Promise<InstallOutcome> {
    const log: string[] = [];
    const failed = (text: string): InstallOutcome => ({ state: 'failed', log: [...log, text] });
    if (!this.installed())
      return failed(`${this.prefix} is not an installed agent (no ${NODE_IN_PREFIX}): upgrade it by hand`);
    const size = (await stat(bundle)).size;
    if (size !== expected.size) return failed(`the bundle has ${size} bytes, the master announced ${expected.size}`);
    const actual = await sha256File(bundle);
    if (actual !== expected.sha256) return failed(`sha256 mismatch: got ${actual}, expected ${expected.sha256}`);
    log.push(`bundle verified: ${size} bytes, sha256 ${actual}`);

    const names = (await tar(['-tzf', bundle])).split('\n').filter(Boolean);
    const unsafe = names.filter((name) => name.startsWith('/') || name.split('/').includes('..'));
    if (unsafe.length > 0)
      return failed(`the bundle holds paths outside its directory: ${unsafe.slice(0, 3).join(', ')}`);
    if (!names.some((name) => name.replace(/^\.\//, '') === 'apps/agent/src/main.ts')) {
      return failed('the bundle has no apps/agent/src/main.ts: not an agent release');
    }
    const staged = `${this.prefix}.new`;
    await rm(staged, { recursive: true, force: true });
    await mkdir(staged, { recursive: true });
    await tar(['-xzf', bundle, '-C', staged, '--no-same-owner']);
    await mkdir(join(staged, 'node', 'bin'), { recursive: true });
    await copyFile(join(this.prefix, NODE_IN_PREFIX), join(staged, NODE_IN_PREFIX));
    log.push(`unpacked ${names.length} entries`);

    await rm(this.previous, { recursive: true, force: true });
    await rename(this.prefix, this.previous);
    try {
      await rename(staged, this.prefix);
    } catch (error) {
      // Never left without an agent: the installed one goes back where it was.
      await rename(this.previous, this.prefix);
      throw error;
    }
    log.push(`switched to ${expected.version}; the previous agent is kept at ${this.previous}`);

    const health = await this.healthCheck(this.prefix).catch(
      (error: unknown): HealthResult => ({ ok: false, output: error instanceof Error ? error.message : String(error) }),
    );
    if (health.ok) {
      log.push('health check passed');
      return { state: 'done', log };
    }
    log.push(`health check failed: ${health.output.trim().slice(0, 1000)}`);
    await this.rollBack();
    const again = await this.healthCheck(this.prefix);
    log.push(
      again.ok
        ? 'rolled back: the previous agent is back in place and passes its health check'
        : `rolled back, but the previous agent fails its health check too: ${again.output.trim().slice(0, 500)}`,
    );
    return { state: 'rolled_back', log };
  }

  /** Puts `<prefix>.previous` back; the release that failed is kept as `<prefix>.failed` for a look. */
  async rollBack(): Promise<void> {
    const failedDir = `${this.prefix}.failed`;
    await rm(failedDir, { recursive: true, force: true });
    await rename(this.prefix, failedDir);
    await rename(this.previous, this.prefix);
  }
}
