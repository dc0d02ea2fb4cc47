import type { Page } from 'playwright-core';

/** Waits until the console chrome is on screen. */
export const consoleReady = async (page: Page): Promise<void> => {
  await page.getByTestId('header').waitFor();
};

/** The names of the side menu's entries that are on screen (groups show their pages once opened). */
export const siderEntries = async (page: Page): Promise<string[]> => {
  const items = page.getByTestId('sider').getByRole('menuitem');
  await items.first().waitFor();
  return (await items.allTextContents()).map((text) => text.trim());
};

/** Opens the user menu in the header and returns the names of its entries. */
export const userMenuEntries = async (page: Page): Promise<string[]> => {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const items = page.getByRole('menu').last().getByRole('menuitem');
  await items.first().waitFor();
  return (await items.allTextContents()).map((text) => text.trim());
};

/** The paths of the open tabs, left to right. */
export const tabPaths = async (page: Page): Promise<string[]> => {
  const tabs = page.getByTestId(/^tab:/);
  await tabs.first().waitFor();
  const ids = await tabs.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.slice('tab:'.length));
};

/** How far the bottom of an element is from the top of the window. */
export const bottomEdge = (page: Page, testId: string): Promise<number> =>
  page.getByTestId(testId).evaluate((element) => element.getBoundingClientRect().bottom);
