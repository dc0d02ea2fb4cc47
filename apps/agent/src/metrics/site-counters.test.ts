import type { AccessLogLine } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { SiteCounters } from './site-counters.ts';

const line = (site: number, time: number, status: number, cache = ''): AccessLogLine => ({
  time,
  site_id: site,
  client_ip: '',
  method: 'GET',
  host: '',
  uri: '/',
  status,
  bytes_sent: 100,
  bytes_received: 10,
  request_time: 0,
  upstream_time: null,
  cache_status: cache,
  user_agent: '',
  referer: '',
  block_reason: '',
});

describe('SiteCounters', () => {
  it('counts requests, bytes, status classes and cache hits per site and minute, the node under site 0', () => {
    const counters = new SiteCounters();
    counters.add([
      line(1, 120.5, 200, 'HIT'),
      line(1, 179.9, 404),
      line(1, 180, 503),
      line(2, 130, 301, 'MISS'),
      line(0, 130, 400),
    ]);
    const taken = counters.take();
    expect(taken.bytesIn).toBe(50);
    expect(taken.bytesOut).toBe(500);
    // Every request the node answered, those no site serves included.
    expect(taken.requests).toBe(5);
    expect(taken.sites).toEqual([
      {
        site_id: 1,
        minute: 120,
        requests: 2,
        bytes_in: 20,
        bytes_out: 200,
        status_2xx: 1,
        status_3xx: 0,
        status_4xx: 1,
        status_5xx: 0,
        cache_hits: 1,
      },
      {
        site_id: 1,
        minute: 180,
        requests: 1,
        bytes_in: 10,
        bytes_out: 100,
        status_2xx: 0,
        status_3xx: 0,
        status_4xx: 0,
        status_5xx: 1,
        cache_hits: 0,
      },
      {
        site_id: 2,
        minute: 120,
        requests: 1,
        bytes_in: 10,
        bytes_out: 100,
        status_2xx: 0,
        status_3xx: 1,
        status_4xx: 0,
        status_5xx: 0,
        cache_hits: 0,
      },
      {
        site_id: 0,
        minute: 120,
        requests: 1,
        bytes_in: 10,
        bytes_out: 100,
        status_2xx: 0,
        status_3xx: 0,
        status_4xx: 1,
        status_5xx: 0,
        cache_hits: 0,
      },
    ]);
    expect(counters.take()).toEqual({ sites: [], bytesIn: 0, bytesOut: 0, requests: 0 });
  });

  it('reports the running totals of a minute that changes again (the master keeps the latest)', () => {
    const counters = new SiteCounters();
    counters.add([line(1, 60, 200)]);
    expect(counters.take().sites[0]?.requests).toBe(1);
    counters.add([line(1, 61, 200), line(1, 62, 200)]);
    expect(counters.take().sites).toEqual([expect.objectContaining({ minute: 60, requests: 3 })]);
  });

  it('reports undelivered minutes again, with their bandwidth', () => {
    const counters = new SiteCounters();
    counters.add([line(1, 60, 200)]);
    const lost = counters.take();
    counters.add([line(2, 60, 200)]);
    counters.restore(lost);
    const next = counters.take();
    expect(next.sites.map((row) => [row.site_id, row.requests])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(next.bytesOut).toBe(200);
  });

  it('forgets old minutes, so memory stays bounded', () => {
    const counters = new SiteCounters();
    counters.add([line(1, 0, 200)]);
    counters.take();
    counters.add([line(1, 7200, 200)]);
    counters.take();
    counters.add([line(1, 0, 200)]);
    // The old minute was forgotten, and a late line for it is too old to report.
    expect(counters.take().sites).toEqual([]);
  });
});
