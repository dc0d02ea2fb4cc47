import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTailer } from './tailer.ts';

describe('FileTailer', () => {
  let dir: string;
  let path: string;
  let clock: number;
  const options = () => ({ graceMs: 1000, now: () => clock, chunkBytes: 16 });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-tailer-'));
    path = join(dir, 'access.log');
    clock = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns whole lines only, and the rest once it is complete', async () => {
    await writeFile(path, 'one\ntwo\nthr');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(100)).toEqual(['one', 'two']);
    expect(tailer.position()?.offset).toBe(8);
    await appendFile(path, 'ee\n');
    expect(await tailer.read(100)).toEqual(['three']);
    expect(await tailer.read(100)).toEqual([]);
    await tailer.close();
  });

  it('stops at maxLines and continues from there', async () => {
    await writeFile(path, 'a\nb\nc\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(2)).toEqual(['a', 'b']);
    expect(tailer.position()?.offset).toBe(4);
    expect(await tailer.read(2)).toEqual(['c']);
    await tailer.close();
  });

  it('stops once maxBytes of lines are read', async () => {
    await writeFile(path, 'aaaa\nbbbb\ncccc\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10, 6)).toEqual(['aaaa', 'bbbb']);
    expect(tailer.position()?.offset).toBe(10);
    expect(await tailer.read(10, 1)).toEqual(['cccc']);
    await tailer.close();
  });

  it('decodes a character split between two reads of the file, and skips empty lines', async () => {
    // With 16-byte reads the last é (2 bytes) of the first line is cut in two.
    await writeFile(path, 'aéééééééé\n\n \nb\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual(['aéééééééé', 'b']);
    expect(tailer.position()?.offset).toBe(23);
    await tailer.close();
  });

  it('reads lines longer than its read size whole, then goes on with short ones', async () => {
    const long = 'x'.repeat(100);
    await writeFile(path, `${long}\nab\n${long}y\n`);
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual([long, 'ab', `${long}y`]);
    expect(tailer.position()?.offset).toBe(206);
    await appendFile(path, 'c\n');
    expect(await tailer.read(10)).toEqual(['c']);
    await tailer.close();
  });

  it('never takes bytes of an earlier read for the end of a line still being written', async () => {
    // The first read leaves a newline at byte 14 of the reused buffer; the next read holds 2 bytes.
    await writeFile(path, '0123456789abcd\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual(['0123456789abcd']);
    await appendFile(path, 'xy');
    expect(await tailer.read(10)).toEqual([]);
    await appendFile(path, 'z\n');
    expect(await tailer.read(10)).toEqual(['xyz']);
    expect(tailer.position()?.offset).toBe(19);
    await tailer.close();
  });

  it('resumes from a checkpoint after a restart', async () => {
    await writeFile(path, 'a\nb\n');
    const first = new FileTailer(path, null, options());
    expect(await first.read(1)).toEqual(['a']);
    const checkpoint = first.position();
    await first.close();
    await appendFile(path, 'c\n');
    const second = new FileTailer(path, checkpoint, options());
    expect(await second.read(10)).toEqual(['b', 'c']);
    await second.close();
  });

  it('finishes the old file after a rotation, waits the grace period, then reads the new one', async () => {
    await writeFile(path, 'a\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual(['a']);
    await rename(path, `${path}.1`);
    await writeFile(path, 'new-1\n');
    // nginx still writes to the old file until it reopens.
    await appendFile(`${path}.1`, 'late\n');
    expect(await tailer.read(10)).toEqual(['late']);
    clock = 500;
    await appendFile(`${path}.1`, 'later\n');
    expect(await tailer.read(10)).toEqual(['later']);
    clock = 1500;
    expect(await tailer.read(10)).toEqual(['new-1']);
    await tailer.close();
  });

  it('after a restart, drains the rotated file its checkpoint points at before the new one', async () => {
    await writeFile(path, 'a\nb\n');
    const first = new FileTailer(path, null, options());
    expect(await first.read(1)).toEqual(['a']);
    const checkpoint = first.position();
    await first.close();
    await rename(path, `${path}.1`);
    await writeFile(path, 'c\n');
    const second = new FileTailer(path, checkpoint, { ...options(), graceMs: 0 });
    expect(await second.read(10)).toEqual(['b', 'c']);
    await second.close();
  });

  it('starts over when the file was truncated', async () => {
    await writeFile(path, 'aaaa\nbbbb\n');
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual(['aaaa', 'bbbb']);
    await truncate(path, 0);
    await appendFile(path, 'c\n');
    expect(await tailer.read(10)).toEqual(['c']);
    await tailer.close();
  });

  it('waits for a file that does not exist yet', async () => {
    const tailer = new FileTailer(path, null, options());
    expect(await tailer.read(10)).toEqual([]);
    expect(tailer.position()).toBeNull();
    await writeFile(path, 'x\n');
    expect(await tailer.read(10)).toEqual(['x']);
    await tailer.close();
  });

  it('looks for a missing file again only after missingRetryMs', async () => {
    const tailer = new FileTailer(path, null, { ...options(), missingRetryMs: 200 });
    expect(await tailer.read(10)).toEqual([]);
    await writeFile(path, 'x\n');
    clock = 199;
    expect(await tailer.read(10)).toEqual([]);
    clock = 200;
    expect(await tailer.read(10)).toEqual(['x']);
    await tailer.close();
  });
});
