import { describe, expect, it } from 'vitest';
import { BENCHES, readFigures } from './report.ts';

const bench = (name: string) => {
  const found = BENCHES.find((entry) => entry.name === name);
  if (!found) throw new Error(`no bench ${name}`);
  return found;
};

describe('the bench report', () => {
  it('reads a figure from what its bench printed and compares it with the target', () => {
    const output =
      'proxy, cache off: edge 46149 req/s, 21.0 µs CPU a request (p99 1.93 ms, worker busy 97 %); plain nginx 51990 req/s, 18.6 µs (p99 1.64 ms, worker busy 97 %); ratio by rate 0.890 (rounds 0.90 0.89 0.81), by CPU a request 0.961 (rounds 0.96 0.96 0.95)';
    const rows = readFigures(bench('proxy'), output);
    expect(rows.map((row) => [row.value, row.status])).toEqual([
      ['0.89', 'MISSED'],
      ['0.961', 'met'],
    ]);
    expect(rows[0]).toMatchObject({ result: '46149 req/s', baseline: 'plain nginx 51990 req/s' });
  });

  it('reads protection by rate and by CPU a request, each against its target', () => {
    const output =
      'protection on (ACL of 1,000 CIDRs + 5 CC rules): 52385 req/s, p99 1.66 ms, 14.1 µs CPU a request; off: 54522 req/s, p99 2.30 ms, 13.5 µs CPU a request; ratio 0.894 by rate, 0.961 by CPU a request; p99 added -0.64 ms';
    const rows = readFigures(bench('protection'), output);
    expect(rows.map((row) => [row.result, row.baseline, row.value, row.status])).toEqual([
      ['52385 req/s', 'protection off 54522 req/s', '0.894', 'MISSED'],
      ['14.1 µs', 'protection off 13.5 µs', '0.961', 'met'],
    ]);
  });

  it('reads the signed-in call by CPU a request, its rate beside it', () => {
    const output = [
      'date: 2026-11-30T03:10:00.000Z  node v24.11.0  wrk -t1 -c32, 3 s a run, 3 alternating rounds (medians)  load 1.2 1.1 1.0 1/150 100',
      'bare Fastify route: 19547 req/s, 50.2 µs server CPU a request',
      'GET /v1/user: 13443 req/s (ratio 0.688), 72.1 µs server CPU a request (ratio 0.597)',
    ].join('\n');
    expect(readFigures(bench('api'), output).map((row) => [row.result, row.baseline, row.value, row.status])).toEqual([
      ['13443 req/s, 72.1 µs (req/s ratio 0.688)', 'bare Fastify route: 19547 req/s, 50.2 µs', '0.597', 'MISSED'],
    ]);
  });

  it('says a figure was not found rather than guessing it when the bench failed', () => {
    const rows = readFigures(bench('api'), 'bench failed: Error: listen EADDRINUSE');
    expect(rows).toEqual([expect.objectContaining({ status: 'not found', value: '' })]);
  });

  it('reads every case a bench prints one a line, each against its own target', () => {
    const output = [
      'full handshakes, RSA 2048: edge 1444/s (660 µs CPU a request), plain nginx 1504/s (625 µs), ratio 0.960 (target 0.9), CPU ratio plain/edge 0.947, client core 30% busy',
      'HTTP/2: edge 20979/s (39 µs CPU a request), plain nginx 34524/s (28 µs), ratio 0.608 (target 0.9), CPU ratio plain/edge 0.724',
    ].join('\n');
    const rows = readFigures(bench('tls'), output);
    expect(rows.map((row) => [row.figure, row.value, row.status])).toEqual([
      ['full handshakes, RSA 2048 (CPU a request)', '0.947', 'met'],
      ['HTTP/2 (CPU a request)', '0.724', 'MISSED'],
    ]);
    expect(readFigures(bench('tls'), '')).toEqual([expect.objectContaining({ status: 'not found' })]);
  });

  it('reads the instruction counts beside the TLS and stream rows, with no target of their own', () => {
    const output = [
      'full handshake, ECDSA P-256, TLS 1.3: edge 2,901,218 (423 connections), plain nginx 2,853,424 (640): plain/edge 0.984',
      'TCP connection (8 clients): edge 13,967 (35033), plain nginx 12,977 (32143): plain/edge 0.929',
    ].join('\n');
    expect(readFigures(bench('tls-instructions'), output).map((row) => [row.figure, row.value, row.status])).toEqual([
      ['full handshake, ECDSA P-256, TLS 1.3 (instructions, informative)', '0.984', 'met'],
      ['TCP connection (8 clients) (instructions, informative)', '0.929', 'met'],
    ]);
    expect(readFigures(bench('stream-instructions'), '')).toEqual([expect.objectContaining({ status: 'not found' })]);
  });

  it('holds a budget as a most, not a least', () => {
    const output = [
      'login route JS: 151.0 kB gzip in 7 files (target ≤ 150 kB)',
      '  of which requested before the first contentful paint: 151.0 kB in 7 files',
      "  of which the first screen (the build's chunks): 151.0 kB in 7 files",
    ].join('\n');
    const login = readFigures(bench('dashboard'), output).find((row) => row.figure.includes('login'));
    expect(login).toMatchObject({ value: '151', status: 'MISSED' });
  });
});
