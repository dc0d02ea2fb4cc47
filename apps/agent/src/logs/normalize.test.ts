import { describe, expect, it } from 'vitest';
import { parseAccessLine, parseStreamLine, upstreamTime } from './normalize.ts';

describe('log line normalization', () => {
  it('turns an nginx access line into the contract shape', () => {
    const line = parseAccessLine(
      '{"time":1700000000.123,"site_id":"12","client_ip":"10.0.0.1","method":"GET","host":"a.test","uri":"/x?y=1","status":200,"bytes_sent":512,"bytes_received":80,"request_time":0.004,"upstream_time":"0.003","cache_status":"MISS","user_agent":"ua","referer":"","block_reason":""}',
    );
    expect(line).toEqual({
      time: 1700000000.123,
      site_id: 12,
      client_ip: '10.0.0.1',
      method: 'GET',
      host: 'a.test',
      uri: '/x?y=1',
      status: 200,
      bytes_sent: 512,
      bytes_received: 80,
      request_time: 0.004,
      upstream_time: 0.003,
      cache_status: 'MISS',
      user_agent: 'ua',
      referer: '',
      block_reason: '',
    });
  });

  it('fills missing fields and cuts strings to the contract limits', () => {
    const line = parseAccessLine(
      JSON.stringify({ uri: 'x'.repeat(5000), site_id: '', method: 'GETGETGETGETGETGETGET' }),
    );
    expect(line?.uri).toHaveLength(4096);
    expect(line?.method).toHaveLength(16);
    expect(line?.site_id).toBe(0);
    expect(line?.status).toBe(0);
    expect(line?.upstream_time).toBeNull();
  });

  it('keeps a logged country, cut to two letters, and adds none to a line without one', () => {
    expect(parseAccessLine('{"country":"DEU"}')?.country).toBe('DE');
    expect(parseAccessLine('{"uri":"/"}')).not.toHaveProperty('country');
  });

  it('refuses lines that are not JSON objects', () => {
    expect(parseAccessLine('garbage')).toBeNull();
    expect(parseAccessLine('[1,2]')).toBeNull();
    expect(parseStreamLine('')).toBeNull();
  });

  it('sums upstream times of retried requests and reads "-" as none', () => {
    expect(upstreamTime('0.001, 0.002')).toBe(0.003);
    expect(upstreamTime('0.010 : 0.005')).toBe(0.015);
    expect(upstreamTime('-')).toBeNull();
    expect(upstreamTime('')).toBeNull();
  });

  it('parses stream lines', () => {
    expect(
      parseStreamLine(
        '{"time":1.5,"stream_id":"4","client_ip":"::1","protocol":"UDP","status":200,"bytes_sent":3,"bytes_received":4,"session_time":0.010,"upstream":"127.0.0.1:53"}',
      ),
    ).toEqual({
      time: 1.5,
      stream_id: 4,
      client_ip: '::1',
      protocol: 'UDP',
      status: 200,
      bytes_sent: 3,
      bytes_received: 4,
      session_time: 0.01,
      upstream: '127.0.0.1:53',
    });
  });
});
