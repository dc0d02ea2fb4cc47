// @vitest-environment jsdom
import { ERROR_PAGE_MAX_LENGTH } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typeInto, waitFor } from '../../../shared/testing/dom.ts';
import {
  control,
  errorAt,
  ok,
  refused,
  save,
  siteFormHarness,
  TEST_SITE,
  typeIntoArea,
} from '../edit/siteFormHarness.tsx';

const STORED = { ...TEST_SITE, error_pages: { '404': '<h1>Lost</h1>' } };

describe('the error pages section of the site edit page', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);

  const section = (container: ParentNode) =>
    waitFor(() => container.querySelector('[data-testid="error-pages-section"]'));
  const toggle = async (container: ParentNode, status: string) =>
    (await control<HTMLButtonElement>(container, `error_pages_${status}_enabled`)).click();
  const page = (container: ParentNode, status: string) =>
    control<HTMLTextAreaElement>(container, `error_pages_${status}_html`);

  it('sends the switched-on pages as a whole, without one switched off', async () => {
    const { container, puts } = harness.open((body) => ok({ ...STORED, ...body }), STORED);
    await section(container);
    expect((await page(container, '404')).value).toBe('<h1>Lost</h1>');
    await toggle(container, '502');
    typeIntoArea(await page(container, '502'), '<h1>Back soon</h1>');
    await toggle(container, 'waf');
    typeIntoArea(await page(container, 'waf'), '<h1>Refused</h1>');
    await toggle(container, '404');
    await waitFor(() => container.querySelector('#error_pages_404_html') === null);
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ error_pages: { '502': '<h1>Back soon</h1>', waf: '<h1>Refused</h1>' } });
  });

  it('counts the characters of a page', async () => {
    const { container } = harness.open((body) => ok({ ...STORED, ...body }), STORED);
    await section(container);
    const row = await waitFor(() => container.querySelector('[data-testid="error-page-404"]'));
    await waitFor(() => row.textContent?.includes(`13 / ${ERROR_PAGE_MAX_LENGTH}`));
  });

  it('leaves untouched pages out of the save', async () => {
    const { container, puts } = harness.open((body) => ok({ ...STORED, ...body }), STORED);
    await section(container);
    typeInto(await waitFor(() => container.querySelector<HTMLInputElement>('#name')), 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('refuses a switched-on page that is empty or too long, naming the rule, and sends nothing', async () => {
    const { container, puts } = harness.open((body) => ok({ ...STORED, ...body }), STORED);
    await section(container);
    await toggle(container, '503');
    await page(container, '503');
    typeIntoArea(await page(container, '404'), 'x'.repeat(ERROR_PAGE_MAX_LENGTH + 1));
    save(container);
    await waitFor(() => errorAt(container, 'error_pages_503_html')?.startsWith('An own page needs its HTML'));
    await waitFor(() => errorAt(container, 'error_pages_404_html') === `At most ${ERROR_PAGE_MAX_LENGTH} characters`);
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal of a page at that page', async () => {
    const { container } = harness.open(() => refused('body/error_pages/404: must NOT have fewer than 1 characters'));
    await section(container);
    await toggle(container, '404');
    typeIntoArea(await page(container, '404'), '<p>gone</p>');
    save(container);
    await waitFor(() => errorAt(container, 'error_pages_404_html') === 'must NOT have fewer than 1 characters');
  });
});
