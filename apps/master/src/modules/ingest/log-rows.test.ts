import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_COLUMNS,
  accessRow,
  ipKeys,
  STREAM_COLUMNS,
  streamRow,
  writeAccessValues,
  writeStreamValues,
} from './log-rows.ts';

const access: AccessLogLine = {
  time: 1700000000.1234,
  site_id: 7,
  client_ip: '192.0.2.9',
  method: 'GET',
  host: 'a.test',
  uri: '/x',
  status: 404,
  bytes_sent: 10,
  bytes_received: 20,
  request_time: 0.0125,
  upstream_time: 0.003,
  cache_status: 'MISS',
  user_agent: 'ua',
  referer: 'r',
  block_reason: '',
};
const stream: StreamLogLine = {
  time: 1700000000.5,
  stream_id: 3,
  client_ip: '2001:db8::1',
  protocol: 'TCP',
  status: 200,
  bytes_sent: 1,
  bytes_received: 2,
  session_time: 1.25,
  upstream: '127.0.0.1:53',
};

describe('log rows', () => {
  it('writes the values of a row in its column order, where it is told', () => {
    const values = new Array<unknown>(2 * ACCESS_COLUMNS);
    writeAccessValues(values, 0, 4, access, ipKeys());
    writeAccessValues(values, ACCESS_COLUMNS, 4, { ...access, upstream_time: null, client_ip: 'not-an-ip' }, ipKeys());
    expect(values).toEqual([
      ...Object.values(accessRow(4, access)),
      ...Object.values(accessRow(4, { ...access, upstream_time: null, client_ip: 'not-an-ip' })),
    ]);
    const streamValues = new Array<unknown>(STREAM_COLUMNS);
    writeStreamValues(streamValues, 0, 4, stream, ipKeys());
    expect(streamValues).toEqual(Object.values(streamRow(4, stream)));
  });

  it('keys each address of a batch once, as ipKey does', () => {
    const keyOf = ipKeys();
    expect(keyOf('192.0.2.9')).toBe(accessRow(1, access).client_ip_key);
    expect(keyOf('192.0.2.9')).toBe(keyOf('192.0.2.9'));
    expect(keyOf('nope')).toBeNull();
  });
});
