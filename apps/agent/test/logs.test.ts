import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { AccessLogLine } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPaths } from '../src/paths.ts';
import { makeSite, makeSnapshot, makeStream } from '../src/testing/snapshots.ts';
import { agentCommandLine, agentNginx, INSTALL_TOKEN, testAgentOptions } from './support/agent.ts';
import { type FakeMaster, startFakeMaster } from './support/fake-master.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');

describe('access and stream logs reach the master exactly once', () => {
  let master: FakeMaster;
  let origin: Origin;
  let echo: Server;
  let agent: ChildProcess | null = null;
  let dataDir = '';
  let args: string[] = [];
  const ports = { http: 0, https: 0, stream: 0 };

  const startAgent = () => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    agent = child;
    return child;
  };
  const killAgent = async (signal: NodeJS.Signals) => {
    const child = agent;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    agent = null;
  };
  const request = (i: number) =>
    edgeRequest(ports.http, {
      host: 'logs.test',
      path: `/r/${i}?q=${i}`,
      headers: { 'user-agent': 'logs-test', referer: 'http://ref.test/' },
    });
  const storedAccess = (): AccessLogLine[] => [...master.batches.values()].flatMap((batch) => batch.access);
  const storedUris = () => storedAccess().map((line) => line.uri);

  beforeAll(async () => {
    master = await startFakeMaster();
    master.accept = true;
    origin = await startOrigin('origin');
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    ports.http = await freePort();
    ports.https = await freePort();
    ports.stream = await freePort();
    master.setSnapshot(
      makeSnapshot({
        version: 1,
        node: { id: 7, http_port: ports.http, https_port: ports.https },
        sites: [
          makeSite({
            id: 31,
            domains: ['logs.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
          }),
        ],
        streams: [
          makeStream({
            id: 32,
            listen_port: ports.stream,
            origins: [
              { address: '127.0.0.1', port: (echo.address() as { port: number }).port, weight: 1, backup: false },
            ],
          }),
        ],
      }),
    );
    const options = await testAgentOptions(master.url);
    dataDir = options.dataDir;
    args = agentCommandLine({
      master: master.url,
      token: INSTALL_TOKEN,
      dataDir,
      controlPort: options.controlPort,
      fast: true,
    });
    startAgent();
    await eventually(async () => expect((await request(0)).status).toBe(200), 15_000, 100);
  });

  afterAll(async () => {
    await killAgent('SIGTERM');
    await agentNginx(dataDir).stop(2000);
    await master?.close();
    await origin?.close();
    await new Promise((resolve) => echo?.close(resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('ships N requests as exactly N access lines with the contract fields, and stream sessions', async () => {
    for (let i = 1; i <= 150; i++) await request(i);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(ports.stream, '127.0.0.1', () => socket.write('bytes'));
      socket.on('data', () => socket.end());
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await eventually(async () => expect(storedUris().length).toBe(151), 15_000, 100);
    expect(new Set(storedUris()).size).toBe(151);
    const line = storedAccess().find((l) => l.uri === '/r/5?q=5');
    expect(line).toMatchObject({
      site_id: 31,
      client_ip: '127.0.0.1',
      method: 'GET',
      host: 'logs.test',
      status: 200,
      cache_status: '',
      user_agent: 'logs-test',
      referer: 'http://ref.test/',
      block_reason: '',
    });
    expect(line?.upstream_time).toBeTypeOf('number');
    expect(line?.bytes_sent).toBeGreaterThan(0);
    await eventually(async () => {
      const streams = [...master.batches.values()].flatMap((batch) => batch.stream);
      expect(streams).toEqual([
        expect.objectContaining({ stream_id: 32, protocol: 'TCP', bytes_received: 5, bytes_sent: 5 }),
      ]);
    }, 10_000);
    // Per-site minutes reach the metrics endpoint as running totals (the latest report of a minute wins).
    await eventually(async () => {
      const latest = new Map<number, number>();
      for (const row of master.metrics.flatMap((m) => m.sites))
        if (row.site_id === 31) latest.set(row.minute, row.requests);
      expect([...latest.values()].reduce((n, requests) => n + requests, 0)).toBe(151);
    }, 10_000);
    // The node's own figures: every request once, load over 1, 5 and 15 minutes, the data directory's disk.
    await eventually(async () => {
      expect(master.metrics.reduce((n, report) => n + (report.requests ?? 0), 0)).toBe(151);
    }, 10_000);
    expect(master.metrics.at(-1)).toMatchObject({
      load5: expect.any(Number),
      load15: expect.any(Number),
      disk_total_bytes: expect.any(Number),
      disk_used_bytes: expect.any(Number),
      nginx_up: true,
    });
    expect(master.metrics.at(-1)?.disk_total_bytes).toBeGreaterThan(0);
  });

  it('loses nothing and stores nothing twice across a kill -9 mid-batch and a master outage', async () => {
    const before = storedUris().length;
    // The master stores the next batch but the agent never hears back; the agent is killed meanwhile.
    let lostAck = 0;
    master.onLogBatch = async (batch) => {
      lostAck = lostAck || batch.seq;
      return 'hang';
    };
    for (let i = 1000; i < 1100; i++) await request(i);
    await eventually(async () => expect(lostAck).toBeGreaterThan(0), 10_000);
    await killAgent('SIGKILL');
    master.onLogBatch = null;
    // nginx keeps serving and logging while the agent is dead.
    for (let i = 1100; i < 1200; i++) await request(i);
    startAgent();
    await eventually(async () => expect(storedUris().length).toBe(before + 200), 20_000, 100);
    expect(new Set(storedUris()).size).toBe(before + 200);
    // The batch whose ack was lost came again under the same seq and was stored once.
    expect(master.deliveries.filter((seq) => seq === lostAck).length).toBeGreaterThanOrEqual(2);

    // The master is unreachable for a while: batches wait in the spool, then all arrive.
    master.down = true;
    for (let i = 1200; i < 1300; i++) await request(i);
    const spool = agentPaths(dataDir).spoolDir;
    await eventually(async () => expect((await readdir(spool)).length).toBeGreaterThan(0), 10_000);
    master.down = false;
    await eventually(async () => expect(storedUris().length).toBe(before + 300), 40_000, 100);
    expect(new Set(storedUris()).size).toBe(before + 300);
  });

  it('SIGTERM stops the agent cleanly and nginx keeps serving', async () => {
    const child = agent!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    agent = null;
    expect((await request(9999)).status).toBe(200);
  });
});
