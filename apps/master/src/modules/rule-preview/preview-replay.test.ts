import type { Condition } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { cidrTest, compileCondition, type RequestTest } from './preview-conditions.ts';
import { type PreviewFilter, type PreviewLine, type PreviewLogLine, RuleReplay } from './preview-replay.ts';

const T0 = Date.UTC(2026, 0, 1);

const line = (seconds: number, fields: Partial<PreviewLogLine> = {}): PreviewLogLine => ({
  time_ms: T0 + seconds * 1000,
  client_ip: '198.51.100.7',
  country: 'US',
  method: 'GET',
  host: 'www.example.com',
  uri: '/',
  status: 200,
  user_agent: 'test',
  referer: '',
  ...fields,
});

const testOf = (condition: Condition): RequestTest => {
  const compiled = compileCondition(condition);
  if (compiled.kind !== 'test') throw new Error(compiled.reason);
  return compiled.test;
};
const pathPrefix = (value: string) => testOf({ field: 'path', op: 'prefix', values: [value], negate: false });
const rate = (requests: number, seconds: number, per: 'ip' | 'ip_url' = 'ip'): PreviewFilter => ({
  type: 'rate',
  requests,
  seconds,
  per,
});
const ruleLine = (test: RequestTest, filter: PreviewFilter, action: PreviewLine['action'] = 'block'): PreviewLine => ({
  test,
  filter,
  action,
  banSeconds: 60,
});

function replay(lines: PreviewLine[], log: PreviewLogLine[], whitelist: string[] = []) {
  const run = new RuleReplay({ kind: 'lines', lines, whitelisted: whitelist.length ? cidrTest(whitelist) : null });
  for (const entry of log) run.add(entry);
  return run.tally();
}

const outcomesOf = (tally: ReturnType<typeof replay>) => tally.samples.map((sample) => sample.outcome).reverse();

describe('rule replay', () => {
  it('counts a rate per address in windows that start at the first request and last the seconds', () => {
    const log = [0, 1, 2, 3, 59.999, 60, 61, 62].map((at) => line(at, { uri: '/login' }));
    const tally = replay([ruleLine(pathPrefix('/login'), rate(2, 60))], log);
    expect(outcomesOf(tally)).toEqual(['pass', 'pass', 'block', 'block', 'block', 'pass', 'pass', 'block']);
    expect(tally.rate_crossings).toEqual([
      { client_ip: '198.51.100.7', first_crossed_at: new Date(T0 + 2000).toISOString(), requests_over: 4 },
    ]);
    expect(tally).toMatchObject({ matched: 8, stopped: 4, stopped_addresses: 1, addresses: 1 });
  });

  it('counts per address and path with ip_url, the path as nginx resolves it', () => {
    const log = ['/a', '/b', '/a', '/%61', '/b'].map((uri, at) => line(at, { uri }));
    const tally = replay([ruleLine(pathPrefix('/'), rate(1, 60, 'ip_url'))], log);
    expect(outcomesOf(tally)).toEqual(['pass', 'pass', 'block', 'block', 'block']);
    expect(tally.top.paths).toEqual([
      { value: '/a', requests: 3 },
      { value: '/b', requests: 2 },
    ]);
  });

  it('refuses a banned address until the ban ends, its counter standing still', () => {
    const log = [0, 1, 2, 30, 62, 63].map((at) => line(at, { uri: '/x' }));
    const tally = replay([ruleLine(pathPrefix('/'), rate(1, 10), 'ban')], log);
    // Banned at 1 s for 60 s: 2 and 30 are refused by the ban; at 62 the counter starts again.
    expect(outcomesOf(tally)).toEqual(['pass', 'ban', 'ban', 'ban', 'pass', 'ban']);
    expect(tally.rate_crossings[0]?.requests_over).toBe(2);
  });

  it('runs the next lines after a logged failure, and the first decision ends them', () => {
    const log = [line(0, { uri: '/api' }), line(1, { uri: '/api' }), line(2, { uri: '/web' })];
    const lines = [
      ruleLine(pathPrefix('/api'), rate(1, 60), 'log'),
      ruleLine(pathPrefix('/api'), { type: 'js' }),
      ruleLine(pathPrefix('/'), { type: 'delay', delay_ms: 100 }),
    ];
    expect(outcomesOf(replay(lines, log))).toEqual(['challenge', 'challenge', 'delay']);
    expect(outcomesOf(replay([lines[0] as PreviewLine], log))).toEqual(['pass', 'log']);
  });

  it('leaves whitelisted addresses and requests nginx refused out', () => {
    const log = [line(0, { client_ip: '10.0.0.1' }), line(1, { uri: '/../etc' }), line(2)];
    const tally = replay([ruleLine(pathPrefix('/'), { type: 'captcha' })], log, ['10.0.0.0/8']);
    expect(tally).toMatchObject({ matched: 1, outcomes: { challenge: 1, pass: 0, allow: 0 } });
  });

  it('lets the first holding ACL entry decide', () => {
    const run = new RuleReplay({
      kind: 'acl',
      reads: [],
      entries: [
        { allow: true, test: pathPrefix('/health') },
        { allow: false, test: null },
        { allow: false, test: testOf({ field: 'ip', op: 'cidr', values: ['198.51.100.0/24'], negate: false }) },
      ],
    });
    for (const uri of ['/health', '/a', '/health/x']) run.add(line(0, { uri }));
    run.add(line(1, { client_ip: '192.0.2.1' }));
    const tally = run.tally();
    expect(tally.outcomes).toEqual({ allow: 2, pass: 0, block: 1, challenge: 0, delay: 0, ban: 0, log: 0 });
    expect(tally).toMatchObject({ matched: 3, stopped: 1 });
  });
});
