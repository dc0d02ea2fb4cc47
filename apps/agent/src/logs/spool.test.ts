import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessLogLine } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool } from './spool.ts';

const line = (uri: string): AccessLogLine => ({
  time: 1,
  site_id: 1,
  client_ip: '127.0.0.1',
  method: 'GET',
  host: 'h',
  uri,
  status: 200,
  bytes_sent: 10,
  bytes_received: 5,
  request_time: 0,
  upstream_time: null,
  cache_status: '',
  user_agent: '',
  referer: '',
  block_reason: '',
});

describe('Spool', () => {
  let dir: string;
  let spoolDir: string;
  let cursorFile: string;
  const at = (offset: number) => ({ access: { ino: 1, offset }, stream: null });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-spool-'));
    spoolDir = join(dir, 'spool');
    cursorFile = join(dir, 'cursor.json');
    await mkdir(spoolDir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('numbers batches from 1 and keeps the sequence across restarts', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    expect((await spool.add([line('/a')], [], at(10)))?.seq).toBe(1);
    expect((await spool.add([line('/b')], [], at(20)))?.seq).toBe(2);
    await spool.remove(1);
    await spool.remove(2);
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await again.open()).toMatchObject({ seq: 2, access: { ino: 1, offset: 20 } });
    expect((await again.add([line('/c')], [], at(30)))?.seq).toBe(3);
  });

  it('returns the oldest unacknowledged batch first, until removed', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    await spool.add([line('/a')], [], at(10));
    await spool.add([line('/b')], [], at(20));
    expect((await spool.oldest())?.seq).toBe(1);
    await spool.remove(1);
    expect((await spool.oldest())?.access[0]?.uri).toBe('/b');
    await spool.remove(2);
    expect(await spool.oldest()).toBeNull();
  });

  it('writes each batch as its body and cursor, and gives the same body from memory or from disk', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    const made = await spool.add([line('/a')], [], at(10));
    const file = await readFile(join(spoolDir, '000000000001.json'), 'utf8');
    expect(file).toBe(JSON.stringify({ seq: 1, access: [line('/a')], stream: [], cursor: made?.cursor }));
    const body = JSON.stringify({ seq: 1, access: [line('/a')], stream: [] });
    expect((await spool.oldest())?.body.toString()).toBe(body);
    expect(await spool.oldest(1)).toBeNull();
    // After a restart the batch comes from its file.
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    await again.open();
    expect((await again.oldest())?.body.toString()).toBe(body);
  });

  it('makes the body of a batch file laid out otherwise from its lines', async () => {
    const cursor = { seq: 1, access: { ino: 1, offset: 10 }, stream: null, dropped: 0 };
    await writeFile(
      join(spoolDir, '000000000001.json'),
      JSON.stringify({ seq: 1, cursor, stream: [], access: [line('/a')] }),
    );
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await spool.open()).toMatchObject({ seq: 1, access: { offset: 10 } });
    expect((await spool.oldest())?.body.toString()).toBe(JSON.stringify({ seq: 1, access: [line('/a')], stream: [] }));
  });

  it('writes the cursor file before the newest batch file goes, not once a batch', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    await spool.add([line('/a')], [], at(10));
    await spool.add([line('/b')], [], at(20));
    await spool.add([line('/c')], [], at(30));
    const saved = async () => JSON.parse(await readFile(cursorFile, 'utf8').catch(() => 'null')) as unknown;
    expect(await saved()).toBeNull();
    // Acknowledged out of order: the newest first, then the older ones without a write.
    await spool.remove(3);
    expect(await saved()).toMatchObject({ seq: 3, access: { offset: 30 } });
    // A marker the removals of older batches must leave alone.
    await writeFile(cursorFile, JSON.stringify({ seq: 0, access: null, stream: null, dropped: 0 }));
    await spool.remove(1);
    await spool.remove(2);
    expect(await saved()).toMatchObject({ seq: 0 });
    await spool.add([line('/d')], [], at(40));
    await spool.remove(4);
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await again.open()).toMatchObject({ seq: 4, access: { offset: 40 } });
  });

  it('after a crash with batches left, resumes after the newest of them', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    await spool.add([line('/a')], [], at(10));
    await spool.add([line('/b')], [], at(20));
    await spool.remove(1);
    await spool.addDropped(2);
    await spool.add([line('/c')], [], at(30));
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await again.open()).toMatchObject({ seq: 3, access: { offset: 30 }, dropped: 2 });
    expect((await again.oldest())?.seq).toBe(2);
    await again.remove(2);
    await again.remove(3);
    const third = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await third.open()).toMatchObject({ seq: 3, access: { offset: 30 }, dropped: 2 });
  });

  it('after a crash between the batch and the cursor file, resumes after the batch', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    await spool.add([line('/a')], [], at(10));
    // Simulate the cursor file lagging: it still says nothing was taken.
    await writeFile(cursorFile, JSON.stringify({ seq: 0, access: null, stream: null, dropped: 0 }));
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    expect(await again.open()).toMatchObject({ seq: 1, access: { offset: 10 } });
    expect((await again.oldest())?.seq).toBe(1);
  });

  it('drops and counts lines beyond its size, and still moves the cursor', async () => {
    const spool = new Spool(spoolDir, cursorFile, 600);
    await spool.open();
    expect(await spool.add([line('/a')], [], at(10))).not.toBeNull();
    expect(await spool.add([line('/b'), line('/c')], [], at(30))).toBeNull();
    expect(spool.cursor).toMatchObject({ seq: 1, dropped: 2, access: { offset: 30 } });
    await spool.remove(1);
    expect((await spool.add([line('/d')], [], at(40)))?.seq).toBe(2);
  });

  it('takes a raised cap at once, and keeps what is spooled, in order, under a lowered one', async () => {
    const spool = new Spool(spoolDir, cursorFile, 600);
    await spool.open();
    expect(await spool.add([line('/a')], [], at(10))).not.toBeNull();
    expect(await spool.add([line('/b'), line('/c')], [], at(30))).toBeNull();
    spool.setMaxBytes(1 << 20);
    expect(spool.maxBytes).toBe(1 << 20);
    expect((await spool.add([line('/b'), line('/c')], [], at(50)))?.seq).toBe(2);
    expect((await spool.add([line('/d')], [], at(60)))?.seq).toBe(3);

    spool.setMaxBytes(100);
    expect(spool.usedBytes).toBeGreaterThan(100);
    expect(await spool.add([line('/e')], [], at(70))).toBeNull();
    expect(spool.cursor).toMatchObject({ seq: 3, dropped: 3, access: { offset: 70 } });
    expect(spool.pendingBatches).toBe(3);
    const uris: string[] = [];
    for (let batch = await spool.oldest(); batch; batch = await spool.oldest()) {
      uris.push(...batch.access.map((spooled) => spooled.uri));
      await spool.remove(batch.seq);
    }
    expect(uris).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('counts malformed lines as dropped, and drops refused batches on request', async () => {
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    await spool.add([], [], at(5), 3);
    expect(spool.cursor.dropped).toBe(3);
    await spool.addDropped(4);
    const again = new Spool(spoolDir, cursorFile, 1 << 20);
    expect((await again.open()).dropped).toBe(7);
  });

  it('cleans up half-written files', async () => {
    await writeFile(join(spoolDir, '000000000001.json.ab12.tmp'), '{');
    const spool = new Spool(spoolDir, cursorFile, 1 << 20);
    await spool.open();
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
