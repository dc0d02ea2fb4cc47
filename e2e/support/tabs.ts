import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Selects the tab called `name`, clicking until it is selected: a tab past the tab bar's width is
 * scrolled into view as it is clicked, and a click during that scroll (or before the page has
 * wired its handlers) can land beside it.
 */
export async function openTab(page: Page, name: string) {
  const tab = page.getByRole('tab', { name, exact: true });
  await expect
    .poll(async () => {
      await tab.click();
      return tab.getAttribute('aria-selected');
    })
    .toBe('true');
}
