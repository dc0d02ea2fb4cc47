import { appendFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogBatchBody } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { MasterClient, MasterError } from '../sync/master-client.ts';
import { LogShipper, masterSender, type SendBatch } from './shipper.ts';

const accessLine = (i: number) =>
  JSON.stringify({
    time: 1700000000.5 + i,
    site_id: '3',
    uri: `/r/${i}`,
    status: 200,
    bytes_sent: 100,
    bytes_received: 50,
    upstream_time: '0.001',
  });

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('LogShipper', () => {
  let dir: string;
  let paths: { accessLog: string; streamLog: string; spoolDir: string; logCursorFile: string };
  const shippers: LogShipper[] = [];
  const make = (overrides: Partial<ConstructorParameters<typeof LogShipper>[0]> = {}) => {
    const shipper = new LogShipper({
      paths,
      spoolMaxBytes: 1 << 24,
      batchLines: 1000,
      batchMs: 100,
      pollMs: 10,
      log: silentLogger,
      ...overrides,
    });
    shippers.push(shipper);
    return shipper;
  };
  const writeLines = (from: number, count: number) =>
    appendFile(paths.accessLog, Array.from({ length: count }, (_, i) => `${accessLine(from + i)}\n`).join(''));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-shipper-'));
    paths = {
      accessLog: join(dir, 'access.log'),
      streamLog: join(dir, 'stream.log'),
      spoolDir: join(dir, 'spool'),
      logCursorFile: join(dir, 'cursor.json'),
    };
    await mkdir(paths.spoolDir);
  });
  afterEach(async () => {
    for (const shipper of shippers.splice(0)) await shipper.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('batches by size and by time, with increasing seq, and counts lines for metrics', async () => {
    const received: LogBatchBody[] = [];
    let counted = 0;
    const shipper = make({ onLines: (access) => (counted += access.length) });
    shipper.setSender(async (batch) => {
      received.push(batch);
      return { seq: batch.seq, duplicate: false };
    });
    await writeLines(0, 2500);
    await appendFile(paths.streamLog, `${JSON.stringify({ time: 1, stream_id: '9', protocol: 'TCP', status: 200 })}\n`);
    await shipper.start();
    await until(() => received.reduce((n, b) => n + b.access.length + b.stream.length, 0) === 2501);
    expect(received.map((b) => b.seq)).toEqual(received.map((_, i) => i + 1));
    // A batch is cut at 1000 lines or after 100 ms, whichever comes first (on a busy machine, time):
    // 2501 lines cannot all ship in full batches, so the last one was cut by time.
    for (const batch of received) expect(batch.access.length + batch.stream.length).toBeLessThanOrEqual(1000);
    expect(received.flatMap((b) => b.access).map((l) => l.uri)).toEqual(
      Array.from({ length: 2500 }, (_, i) => `/r/${i}`),
    );
    expect(received.flatMap((b) => b.access)[0]).toMatchObject({ site_id: 3, upstream_time: 0.001 });
    expect(received.flatMap((b) => b.stream)).toEqual([expect.objectContaining({ stream_id: 9 })]);
    expect(counted).toBe(2500);
  });

  it('cuts a batch at the line limit when its time is not up', async () => {
    const received: LogBatchBody[] = [];
    const shipper = make({ batchMs: 3_600_000 });
    shipper.setSender(async (batch) => {
      received.push(batch);
      return { seq: batch.seq, duplicate: false };
    });
    await writeLines(0, 2000);
    await shipper.start();
    await until(() => received.length === 2);
    expect(received.map((batch) => batch.access.length)).toEqual([1000, 1000]);
  });

  it('sends the rest of a backlog at once, and a trickle after the batch time', async () => {
    const received: LogBatchBody[] = [];
    const shipper = make({ batchMs: 3_600_000 });
    shipper.setSender(async (batch) => {
      received.push(batch);
      return { seq: batch.seq, duplicate: false };
    });
    await writeLines(0, 2500);
    await shipper.start();
    await until(() => received.length === 3);
    expect(received.map((batch) => batch.access.length)).toEqual([1000, 1000, 500]);
    // Lines that come one pass at a time, with no full batch in it, wait for the batch time.
    await writeLines(2500, 10);
    const { size } = await stat(paths.accessLog);
    await until(() => shipper.positions().access?.offset === size);
    expect(shipper.spool.cursor.seq).toBe(3);
  });

  it('keeps batches in the spool while the master is away and sends them in order later', async () => {
    const received: number[] = [];
    let up = false;
    const sender: SendBatch = async (batch) => {
      if (!up) throw new TypeError('fetch failed');
      received.push(batch.seq);
      return { seq: batch.seq, duplicate: false };
    };
    const shipper = make();
    shipper.setSender(sender);
    await shipper.start();
    for (let i = 0; i < 3; i++) {
      await writeLines(i * 10, 10);
      await until(() => shipper.spool.pendingBatches === i + 1);
    }
    up = true;
    await until(() => received.length === 3, 10_000);
    expect(received).toEqual([1, 2, 3]);
    // The third acknowledgement is applied after the sender returns: wait for it, do not race it.
    await until(() => shipper.spool.pendingBatches === 0, 10_000);
  });

  it('re-sends an unacknowledged batch under the same seq after a crash, and resumes after it', async () => {
    const stored = new Map<number, LogBatchBody>();
    const first = make();
    first.setSender(async (batch) => {
      stored.set(batch.seq, batch);
      throw new TypeError('connection reset');
    });
    await writeLines(0, 50);
    await first.start();
    await until(() => stored.size === 1);
    // A crash: the first shipper stops where it is; its files stay as they are.
    shippers.splice(0);
    await first.stop({ seal: false });
    await writeLines(50, 50);
    const second = make();
    second.setSender(async (batch) => {
      const duplicate = stored.has(batch.seq);
      if (!duplicate) stored.set(batch.seq, batch);
      return { seq: batch.seq, duplicate };
    });
    await second.start();
    await until(() => [...stored.values()].reduce((n, b) => n + b.access.length, 0) === 100);
    const uris = [...stored.values()].flatMap((b) => b.access.map((l) => l.uri));
    expect(new Set(uris).size).toBe(100);
    expect([...stored.keys()]).toEqual([1, 2]);
  });

  it('sends the next batch while one is unanswered, and after a failure again from the oldest', async () => {
    const calls: number[] = [];
    let failFirst: (error: Error) => void = () => undefined;
    const shipper = make({ batchLines: 10, inFlight: 2 });
    shipper.setSender((batch) => {
      calls.push(batch.seq);
      expect(JSON.parse(Buffer.from(batch.body).toString())).toEqual({
        seq: batch.seq,
        access: batch.access,
        stream: batch.stream,
      });
      if (batch.seq === 1 && calls.length === 1) {
        return new Promise((_, reject) => {
          failFirst = reject;
        });
      }
      return Promise.resolve({ seq: batch.seq, duplicate: false });
    });
    await writeLines(0, 30);
    await shipper.start();
    // Batch 1 hangs: 2 and 3 go out meanwhile, one beside it at a time.
    await until(() => calls.includes(3));
    expect(calls.slice(0, 3)).toEqual([1, 2, 3]);
    failFirst(new TypeError('connection reset'));
    await until(() => shipper.spool.pendingBatches === 0);
    expect(calls.filter((seq) => seq === 1)).toHaveLength(2);
    expect(calls.filter((seq) => seq !== 1)).toEqual([2, 3]);
  });

  it('sends a batch in flight when its master dies to the next master: stored there, shipped once', async () => {
    const body = async (request: IncomingMessage) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      return JSON.parse(Buffer.concat(chunks).toString()) as LogBatchBody;
    };
    // Master a takes a batch and dies before it answers; b stores each seq once and acknowledges it.
    const takenByA: number[] = [];
    const a = createServer(async (request) => {
      takenByA.push((await body(request)).seq);
      a.close();
      a.closeAllConnections();
    });
    const storedByB = new Map<number, LogBatchBody>();
    const b = createServer(async (request, response) => {
      const batch = await body(request);
      const duplicate = storedByB.has(batch.seq);
      if (!duplicate) storedByB.set(batch.seq, batch);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 0, msg: 'ok', data: { seq: batch.seq, duplicate } }));
    });
    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const [urlA, urlB] = [await listen(a), await listen(b)];
    try {
      const client = new MasterClient([urlA, urlB]);
      const shipped: number[] = [];
      const shipper = make({ batchLines: 10 });
      shipper.setSender(masterSender(client, { 'node-token': 'n' }, (batch) => shipped.push(batch.seq)));
      await writeLines(0, 30);
      await shipper.start();
      await until(() => shipped.length === 3 && shipper.spool.pendingBatches === 0);
      expect(takenByA[0]).toBe(1);
      expect([...storedByB.keys()].sort()).toEqual([1, 2, 3]);
      expect(shipped.sort()).toEqual([1, 2, 3]);
      const uris = [...storedByB.values()].flatMap((batch) => batch.access.map((line) => line.uri));
      expect(uris.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `/r/${i}`).sort());
      expect(shipper.droppedLines).toBe(0);
      expect(client.baseUrl).toBe(urlB);
    } finally {
      b.closeAllConnections();
      b.close();
    }
  });

  it('drops and counts a batch the master refuses for good', async () => {
    const shipper = make();
    shipper.setSender(async (batch) => {
      if (batch.seq === 1) throw new MasterError('invalid_body', 'bad', 400);
      return { seq: batch.seq, duplicate: false };
    });
    await writeLines(0, 5);
    await shipper.start();
    await until(() => shipper.droppedLines === 5);
    await writeLines(5, 1);
    await until(() => shipper.spool.cursor.seq === 2 && shipper.spool.pendingBatches === 0);
  });

  it('counts unreadable lines as dropped', async () => {
    const shipper = make();
    await appendFile(paths.accessLog, 'not json\n{"uri":"/ok"}\n');
    await shipper.start();
    await until(() => shipper.spool.cursor.seq === 1);
    expect(shipper.droppedLines).toBe(1);
  });
});
