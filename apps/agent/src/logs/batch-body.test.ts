import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { batchBody } from './batch-body.ts';

const access = (uri: string, extra: Partial<AccessLogLine> = {}): AccessLogLine => ({
  time: 1700000000.123,
  site_id: 3,
  client_ip: '2001:db8::1',
  method: 'GET',
  host: 'a.test',
  uri,
  status: 200,
  bytes_sent: 10,
  bytes_received: 20,
  request_time: 0.004,
  upstream_time: null,
  cache_status: 'HIT',
  user_agent: 'ua',
  referer: '',
  block_reason: '',
  ...extra,
});

const stream: StreamLogLine = {
  time: 1700000000.5,
  stream_id: 2,
  client_ip: '192.0.2.1',
  protocol: 'UDP',
  status: 200,
  bytes_sent: 1,
  bytes_received: 2,
  session_time: 0.25,
  upstream: '127.0.0.1:53',
};

describe('batchBody', () => {
  it('is the JSON.stringify of the batch, byte for byte, whatever the lines hold', () => {
    const lines = [
      access('/plain'),
      access('/q?a="b"&c=\\d', { user_agent: 'tab\there\nnew line \u0001', country: 'DE' }),
      access('/caf\u00e9/\u6f22\u5b57/\ud83d\ude00', { referer: 'lone \ud800 surrogate', upstream_time: 0.25 }),
    ];
    for (const [seq, a, s] of [
      [1, lines, [stream]],
      [2, [], []],
      [3, [], [stream, stream]],
    ] as const) {
      const body = batchBody(seq, a, s);
      expect(body.toString()).toBe(JSON.stringify({ seq, access: a, stream: s }));
    }
  });

  it('makes a body larger than its first buffer, and each body its own memory', () => {
    const big = Array.from({ length: 5000 }, (_, i) => access(`/${'x'.repeat(300)}/${i}`));
    const first = batchBody(1, big, []);
    const copy = Buffer.from(first);
    const second = batchBody(2, [access('/other')], []);
    expect(first.length).toBeGreaterThan(1 << 20);
    expect(first.equals(copy)).toBe(true);
    expect(JSON.parse(first.toString())).toEqual({ seq: 1, access: big, stream: [] });
    expect(JSON.parse(second.toString()).access[0].uri).toBe('/other');
  });
});
