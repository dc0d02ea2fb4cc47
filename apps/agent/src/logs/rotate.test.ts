import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateIfLarge } from './rotate.ts';

describe('rotateIfLarge', () => {
  let dir: string;
  let path: string;
  let reopened = 0;
  const reopen = async () => {
    reopened++;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-rotate-'));
    path = join(dir, 'access.log');
    reopened = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves small files alone', async () => {
    await writeFile(path, 'x\n');
    expect(await rotateIfLarge(path, 100, null, reopen)).toBe(false);
    expect(reopened).toBe(0);
  });

  it('moves a large file to .1 and has nginx reopen its logs', async () => {
    await writeFile(path, 'x'.repeat(200));
    expect(await rotateIfLarge(path, 100, null, reopen)).toBe(true);
    expect(await readFile(`${path}.1`, 'utf8')).toHaveLength(200);
    expect(reopened).toBe(1);
  });

  it('does not overwrite a rotated file the tailer is still reading', async () => {
    await writeFile(`${path}.1`, 'unread\n');
    await writeFile(path, 'x'.repeat(200));
    const reading = (await stat(`${path}.1`)).ino;
    expect(await rotateIfLarge(path, 100, reading, reopen)).toBe(false);
    expect(await readFile(`${path}.1`, 'utf8')).toBe('unread\n');
  });
});
