import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const LONG_DOMAIN = 'static-assets.eu-west.very-long-customer-subdomain.example-shop.com';

/** How many line boxes an inline element takes: one unless its text wrapped. */
const lineCount = (element: Locator) => element.evaluate((node) => node.getClientRects().length);

describe('site list at 1366 px: names on one line, owners by account', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'wanda');

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

/** How many lines each text of the element takes: a header that wraps mid-word takes two. */
const textLines = (element: Locator) =>
  element.evaluate((node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const lines: number[] = [];
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      lines.push(new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size);
    }
    return lines;
  });

describe('site list at 1280 px in Chinese: headers and actions whole', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'zhou');

  it('keeps every header on one line and every action readable, for the customer and an admin', async () => {
    const owner = await customer();
    const site = await createSite(suite, owner.token, 'layout-zh.example.com');
    const { baseUrl, adminPassword } = suite.master();
    for (const token of [owner.token, await adminToken(baseUrl, adminPassword)]) {
      const page = await suite.openPage({ token, locale: 'zh-CN', width: 1280, height: 800 });
      await page.goto(suite.url('/site/list'));
      await page.getByTestId(`site-link:${site.id}`).waitFor();
      const headers = page.getByTestId('site-list-page').getByRole('columnheader');
      const count = await headers.count();
      expect(count).toBeGreaterThan(6);
      for (let index = 0; index < count; index++) {
        const lines = await textLines(headers.nth(index));
        expect(
          lines.every((line) => line <= 1),
          `${await headers.nth(index).textContent()}`,
        ).toBe(true);
      }
      // The actions are whole: each button's text fits its box, none cut short.
      const row = page.getByRole('row').filter({ has: page.getByTestId(`site-link:${site.id}`) });
      for (const name of ['编辑', '解析指引', '删除']) {
        const action = row.getByRole(name === '编辑' ? 'link' : 'button', { name, exact: true });
        const fits = await action.evaluate((node) => node.scrollWidth <= node.clientWidth + 1);
        expect(fits, name).toBe(true);
        expect(await textLines(action)).toEqual([1]);
      }
    }
  });
});
