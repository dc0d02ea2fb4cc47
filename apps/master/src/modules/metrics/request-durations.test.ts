import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './request-durations.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const NAME = 'rampart_http_request_duration_seconds';
const HELP = 'Time to answer an HTTP request, by route pattern, method and status code.';

/** The same observations into prom-client's labelled Histogram and into RequestDurations. */
function both(observations: [string, string, number, number][]) {
  const reference = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: BUCKETS,
    registers: [reference],
  });
  const ours = new Registry();
  const durations = new RequestDurations({ name: NAME, help: HELP, buckets: BUCKETS, registers: [ours] });
  for (const [route, method, status, seconds] of observations) {
    histogram.observe({ route, method, status_code: String(status) }, seconds);
    durations.observe(route, method, status, seconds);
  }
  return { reference, ours, durations };
}

describe('RequestDurations', () => {
  const observations: [string, string, number, number][] = [
    ['/v1/user', 'GET', 200, 0.0004],
    ['/v1/sites', 'GET', 200, 0.0031],
    ['/v1/user', 'GET', 200, 0.001],
    ['/v1/user', 'GET', 401, 0.02],
    ['/v1/sites', 'POST', 200, 0.7],
    ['/v1/sites/:id', 'GET', 404, 75],
    ['unmatched', 'GET', 404, 0.000123456789],
    ['/v1/quote"\\\nroute', 'GET', 200, 3.3],
    ['/v1/user', 'GET', 200, 0.1 + 0.2],
  ];

  it('exposes the same text as prom-client’s labelled Histogram for the same observations', async () => {
    const { reference, ours } = both(observations);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('gives the same JSON values, and nothing after a reset, as prom-client', async () => {
    const { reference, ours } = both(observations);
    expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
    reference.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('refuses a value that is not a finite number, as prom-client does', () => {
    const { durations } = both([]);
    expect(() => durations.observe('/v1/user', 'GET', 200, Number.NaN)).toThrow(TypeError);
  });
});
