import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { createSite, customerOf } from './support/edge.ts';
import { useSuite } from './support/suite.ts';

const LONG_DOMAIN = 'static-assets.eu-west.very-long-customer-subdomain.example-shop.com';

/** How many line boxes an inline element takes: one unless its text wrapped. */
const lineCount = (element: Locator) => element.evaluate((node) => node.getClientRects().length);

describe('site list at 1366 px: names on one line, owners by account', () => {
  const suite = useSuite();
  const customer = customerOf(suite, 'wanda');

  it("keeps a long domain and its origin on one line and names the owner's account for an admin", async () => {
    const owner = await customer();
    const site = await createSite(suite, owner.token, LONG_DOMAIN);
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword), width: 1366, height: 768 });
    await page.goto(suite.url('/site/list'));
    const link = page.getByTestId(`site-link:${site.id}`);
    await link.waitFor();
    const row = page.getByRole('row', { name: new RegExp(LONG_DOMAIN.replaceAll('.', '\\.')) });
    const domain = link.getByText(LONG_DOMAIN, { exact: true });
    await expect.poll(() => lineCount(domain)).toBe(1);
    const origin = row.getByTestId('site-origins').getByText('127.0.0.1:8080', { exact: true });
    await expect.poll(() => lineCount(origin)).toBe(1);
    // Not cut short either: the cell holds the whole origin.
    const cell = await origin.evaluate((node) => {
      const td = node.closest('td');
      return td ? { scroll: td.scrollWidth, client: td.clientWidth } : undefined;
    });
    expect(cell && cell.scroll <= cell.client).toBe(true);

    const ownerName = row.getByTestId(`owner:${owner.id}`);
    await expect.poll(() => ownerName.textContent()).toBe('wanda');
    await ownerName.hover();
    await page.getByRole('tooltip', { name: `User ID ${owner.id}` }).waitFor();
  });
});
