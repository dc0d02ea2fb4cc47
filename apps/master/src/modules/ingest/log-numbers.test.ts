import type { AccessLogLine, LogBatchBody, StreamLogLine } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { nonFiniteLogNumber } from './log-numbers.ts';

const access: AccessLogLine = {
  time: 1_795_000_000.5,
  site_id: 1,
  client_ip: '192.0.2.1',
  method: 'GET',
  host: 'a.test',
  uri: '/',
  status: 200,
  bytes_sent: 1,
  bytes_received: 2,
  request_time: 0.1,
  upstream_time: 0.05,
  cache_status: '',
  user_agent: '',
  referer: '',
  block_reason: '',
};
const stream: StreamLogLine = {
  time: 1_795_000_000.5,
  stream_id: 1,
  client_ip: '192.0.2.1',
  protocol: 'tcp',
  status: 200,
  bytes_sent: 1,
  bytes_received: 2,
  session_time: 3,
  upstream: '127.0.0.1:80',
};
const batch = (changes: Partial<LogBatchBody> = {}): LogBatchBody => ({
  seq: 1,
  access: [access, access],
  stream: [stream, stream],
  ...changes,
});

describe('nonFiniteLogNumber', () => {
  it('passes a batch whose numbers are all finite, a null upstream time included', () => {
    expect(nonFiniteLogNumber(batch())).toBeUndefined();
    expect(nonFiniteLogNumber(batch({ access: [{ ...access, upstream_time: null }] }))).toBeUndefined();
  });

  it('names the first number that is not finite, in each place the schema puts one', () => {
    expect(nonFiniteLogNumber(batch({ seq: Number.POSITIVE_INFINITY }))).toBe('seq');
    for (const key of ['time', 'site_id', 'status', 'bytes_sent', 'bytes_received', 'request_time', 'upstream_time']) {
      for (const bad of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
        expect(nonFiniteLogNumber(batch({ access: [access, { ...access, [key]: bad }] }))).toBe(`access/1/${key}`);
      }
    }
    for (const key of ['time', 'stream_id', 'status', 'bytes_sent', 'bytes_received', 'session_time']) {
      expect(nonFiniteLogNumber(batch({ stream: [{ ...stream, [key]: Number.NaN }] }))).toBe(`stream/0/${key}`);
    }
  });
});
