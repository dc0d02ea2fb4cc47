import { DEFAULT_SITE_HEALTH_CHECK, type SiteHealthCheck } from '@rampart/contracts';
import { HOSTILE_VALUES } from '@rampart/contracts/testing';
import { describe, expect, it } from 'vitest';
import { healthCheckRoute } from './health-check-route.ts';
import { RenderRefusal } from './quote.ts';

const on: SiteHealthCheck = { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true };
const site = {
  origin_host: '',
  origin_protocol: 'http' as const,
  http_listen: true,
  hosts: ['*.example.com', 'www.example.com'],
};

describe('a site’s health check as the edge reads it', () => {
  it('is absent while off or never set', () => {
    expect(healthCheckRoute(undefined, site)).toBeUndefined();
    expect(healthCheckRoute(DEFAULT_SITE_HEALTH_CHECK, site)).toBeUndefined();
  });

  it('sends its own Host, else the origin host, else the first name that is no wildcard, else none', () => {
    expect(healthCheckRoute({ ...on, host: 'check.example.net' }, site)?.host).toBe('check.example.net');
    expect(healthCheckRoute(on, { ...site, origin_host: 'origin.example.net' })?.host).toBe('origin.example.net');
    expect(healthCheckRoute(on, site)?.host).toBe('www.example.com');
    expect(healthCheckRoute(on, { ...site, hosts: ['*.example.com'] })?.host).toBe('');
  });

  it('connects over TLS when the site reaches its origins over HTTPS, or follows visitors on HTTPS only', () => {
    expect(healthCheckRoute(on, site)?.tls).toBe(false);
    expect(healthCheckRoute(on, { ...site, origin_protocol: 'https' })?.tls).toBe(true);
    expect(healthCheckRoute(on, { ...site, origin_protocol: 'follow' })?.tls).toBe(false);
    expect(healthCheckRoute(on, { ...site, origin_protocol: 'follow', http_listen: false })?.tls).toBe(true);
  });

  it('carries the counts by the edge’s names, the statuses once each, and no timeout past the interval', () => {
    expect(
      healthCheckRoute({ ...on, statuses: [200, 200, 301], interval: 3, timeout: 9, failures: 4, successes: 5 }, site),
    ).toEqual({
      path: '/',
      host: 'www.example.com',
      statuses: [200, 301],
      interval: 3,
      timeout: 3,
      fall: 4,
      rise: 5,
      tls: false,
    });
  });

  it('refuses what the master would not have stored', () => {
    for (const value of HOSTILE_VALUES) {
      expect(() => healthCheckRoute({ ...on, path: `/x${value}` }, site), value).toThrow(RenderRefusal);
      expect(() => healthCheckRoute({ ...on, host: `a${value}` }, site), value).toThrow(RenderRefusal);
    }
    expect(() => healthCheckRoute({ ...on, path: 'healthz' }, site)).toThrow(RenderRefusal);
    expect(() => healthCheckRoute({ ...on, statuses: [] }, site)).toThrow(RenderRefusal);
    expect(() => healthCheckRoute({ ...on, statuses: [99] }, site)).toThrow(RenderRefusal);
    expect(() => healthCheckRoute({ ...on, interval: 0 }, site)).toThrow(RenderRefusal);
    expect(() => healthCheckRoute({ ...on, failures: 11 }, site)).toThrow(RenderRefusal);
  });
});
