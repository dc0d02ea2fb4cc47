import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { readConfig } from '../../config.ts';
import { DataDirInUseError, lockDataDir } from './single-master.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-single-'));
  dirs.push(dir);
  return dir;
};

describe('one master per SQLite data directory', () => {
  it('refuses a second lock while the first is held, and gives it once released', () => {
    const dir = dataDir();
    const first = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.pid}`);
    first.release();
    lockDataDir(dir).release();
  });

  it('is free again as soon as a master holding it is killed with -9', async () => {
    const dir = dataDir();
    const module = join(import.meta.dirname, 'single-master.ts');
    const child = spawn(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(module)}).then((m) => { m.lockDataDir(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000); })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
      child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    expect(() => lockDataDir(dir)).toThrow(`pid ${child.pid}`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    lockDataDir(dir).release();
  });

  it('stops a second master started on the same directory at once, with a message saying why', async () => {
    const config = readConfig({ RAMPART_DATA_DIR: dataDir(), RAMPART_ADMIN_PASSWORD: 'admin-secret-1' });
    const first = await buildApp(config, { logger: false, background: false });
    try {
      await expect(buildApp(config, { logger: false, background: false })).rejects.toThrow(
        /another master is running on the SQLite data directory .*PostgreSQL/,
      );
    } finally {
      await first.close();
    }
    // Closed, the first lets the directory go.
    const again = await buildApp(config, { logger: false, background: false });
    await again.close();
  });
});
