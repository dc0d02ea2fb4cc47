import type { AccessLogLine } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { parseLogBatchJson } from './log-batch-json.ts';

const line = (i: number): AccessLogLine => ({
  time: 1_795_000_000.123 + i,
  site_id: 1 + (i % 3),
  client_ip: '192.0.2.1',
  method: 'GET',
  // Quotes, backslashes, brackets and commas inside strings, and characters of 2 to 4 UTF-8 bytes.
  uri: `/p/${i}?q="a\\",[b]{c},d&caf\u00e9=\u6f22\u{1f600}`,
  host: 'a.test',
  status: 200,
  bytes_sent: 100,
  bytes_received: 10,
  request_time: 0.001,
  upstream_time: i % 2 === 0 ? null : 0.002,
  cache_status: 'HIT',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  referer: '',
  block_reason: '',
  country: 'NL',
});

/** Parses as the route does, counting the texts handed to JSON.parse. */
function parsed(body: string) {
  const texts: string[] = [];
  const value = parseLogBatchJson(Buffer.from(body), (text) => {
    texts.push(text);
    return JSON.parse(text);
  });
  return { value, texts };
}

describe('parseLogBatchJson', () => {
  const batch = { seq: 42, access: Array.from({ length: 2000 }, (_, i) => line(i)), stream: [] };

  it('parses a batch as agents write it a piece at a time, to the whole body value', () => {
    const body = JSON.stringify(batch);
    const { value, texts } = parsed(body);
    expect(value).toEqual(JSON.parse(body));
    expect(Object.keys(value ?? {})).toEqual(['seq', 'access', 'stream']);
    // Cut into pieces, none of them the whole body's text.
    expect(texts.length).toBeGreaterThan(3);
    expect(Math.max(...texts.map((text) => text.length))).toBeLessThan(100_000);
  });

  it('parses empty line lists and stream lines', () => {
    const streamLine = {
      time: 1.5,
      stream_id: 3,
      client_ip: '::1',
      protocol: 'tcp',
      status: 200,
      bytes_sent: 1,
      bytes_received: 2,
      session_time: 0.5,
      upstream: '[::1]:80',
    };
    for (const body of [
      { seq: 1, access: [], stream: [] },
      { seq: 7, access: [], stream: [streamLine, streamLine] },
      { seq: 123456789012345, access: [line(1)], stream: [streamLine] },
    ]) {
      expect(parsed(JSON.stringify(body)).value).toEqual(body);
    }
  });

  it('leaves any other layout to the whole-body parse', () => {
    const other = [
      JSON.stringify(batch, null, 1),
      JSON.stringify({ access: batch.access, seq: 1, stream: [] }),
      JSON.stringify({ ...batch, extra: 1 }),
      JSON.stringify({ ...batch, seq: 1.5 }),
      JSON.stringify({ ...batch, seq: 0 }),
      `${JSON.stringify(batch)} `,
      `{"seq":1,"access":[],"stream":[]}{}`,
      '{"seq":1,"access":{},"stream":[]}',
    ];
    for (const body of other) expect(parsed(body).value).toBeUndefined();
  });

  it('leaves what the whole body parse refuses to it: stray commas, broken lines', () => {
    const lines = JSON.stringify(batch.access).slice(1, -1);
    // One line longer than a piece: the comma after it is a cut, and what follows it a piece of its own.
    const long = JSON.stringify({ ...line(0), user_agent: 'x'.repeat(70_000) });
    const broken = [
      `{"seq":1,"access":[${long},],"stream":[]}`,
      `{"seq":1,"access":[${long}, ],"stream":[]}`,
      `{"seq":1,"access":[${lines},],"stream":[]}`,
      `{"seq":1,"access":[${lines}, ],"stream":[]}`,
      `{"seq":1,"access":[,${lines}],"stream":[]}`,
      `{"seq":1,"access":[${lines},,${lines}],"stream":[]}`,
      `{"seq":1,"access":[${lines}],"stream":[{"a":]}`,
      `{"seq":1,"access":[${lines}`,
    ];
    for (const body of broken) {
      expect(() => JSON.parse(body)).toThrow();
      expect(parsed(body).value).toBeUndefined();
    }
  });

  it('leaves a body to the whole-body parse when a cut falls inside a string', () => {
    const tricky = { ...line(0), user_agent: `${'x'.repeat(40_000)}},{"y":1}],"stream":[` };
    const body = JSON.stringify({ seq: 1, access: [tricky, line(1)], stream: [] });
    expect(parsed(body).value).toBeUndefined();
  });

  it('passes each piece through the given parser, so what it refuses is refused', () => {
    const poisoned = JSON.stringify(batch).replace('"host":"a.test"', '"__proto__":{"x":1}');
    const value = parseLogBatchJson(Buffer.from(poisoned), (text) => {
      if (text.includes('__proto__')) throw new Error('poisoned');
      return JSON.parse(text);
    });
    expect(value).toBeUndefined();
  });
});
