// @vitest-environment jsdom
import { DEFAULT_SITE_HEALTH_CHECK, type OriginHealth } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typeInto, waitFor } from '../../../shared/testing/dom.ts';
import { control, errorAt, ok, refused, TEST_SITE as SITE, save, siteFormHarness } from '../edit/siteFormHarness.tsx';

const CHECKED = { ...SITE, health_check: { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true } };
const STATES: OriginHealth = {
  enabled: true,
  nodes: [
    {
      node_id: 3,
      name: 'edge-tokyo',
      reported_at: '2026-01-01T00:00:30Z',
      origins: [
        { address: '10.0.0.1', port: 80, up: true, checked_at: '2026-01-01T00:00:29Z', error: '' },
        { address: '10.0.0.2', port: 80, up: false, checked_at: '2026-01-01T00:00:28Z', error: 'status 503' },
      ],
    },
  ],
};

describe('the health check section of the site edit page', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);
  const open = harness.open;

  const section = (container: ParentNode) =>
    waitFor(() => container.querySelector('[data-testid="health-check-section"]'));
  const field = <T extends Element>(container: ParentNode, id: string) => control<T>(container, `health_check_${id}`);

  it('sends the whole check: its path, Host, statuses as numbers and counts', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    typeInto(await field(container, 'path'), '/healthz?full=1');
    typeInto(await field(container, 'host'), 'Origin.Example.com');
    typeInto(await field(container, 'failures'), '5');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({
      health_check: {
        ...DEFAULT_SITE_HEALTH_CHECK,
        enabled: true,
        path: '/healthz?full=1',
        host: 'origin.example.com',
        statuses: [200],
        failures: 5,
      },
    });
  });

  it('leaves an untouched check out of the save, on a site that never set one', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }), { ...SITE, health_check: undefined });
    await section(container);
    typeInto(await waitFor(() => container.querySelector<HTMLInputElement>('#name')), 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('refuses a path without its slash and a timeout past the interval, and sends nothing', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    typeInto(await field(container, 'path'), 'healthz');
    typeInto(await field(container, 'interval'), '3');
    typeInto(await field(container, 'timeout'), '4');
    save(container);
    await waitFor(() => errorAt(container, 'health_check_path')?.startsWith('A path starting with /'));
    await waitFor(() => errorAt(container, 'health_check_timeout') === 'At most the interval (3 seconds)');
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal at its field', async () => {
    const { container } = open(() => refused('health_check/timeout: must be at most the interval (2 seconds)'));
    await section(container);
    typeInto(await field(container, 'failures'), '4');
    save(container);
    await waitFor(() => errorAt(container, 'health_check_timeout') === 'must be at most the interval (2 seconds)');
  });

  it('shows each origin as each node sees it, once the check is saved on', async () => {
    const { container } = open(() => ok(CHECKED), CHECKED, { '/v1/sites/7/origin-health': STATES });
    const states = await waitFor(() => container.querySelector('[data-testid="origin-states"]'));
    await waitFor(() => states.textContent?.includes('edge-tokyo'));
    const rows = [...states.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(rows.map((cells) => [cells[0], cells[1], cells[2], cells[4]])).toEqual([
      ['edge-tokyo', '10.0.0.1:80', 'In use', '—'],
      ['edge-tokyo', '10.0.0.2:80', 'Taken out', 'status 503'],
    ]);
  });

  it('asks for no states while the saved check is off', async () => {
    const { container } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    expect(container.querySelector('[data-testid="origin-states"]')).toBeNull();
  });
});
