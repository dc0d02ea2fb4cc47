import type { Locator, Page } from 'playwright-core';

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

const LOGOUT_NAMES = {
  en: ['Account menu', 'Log out', 'Logout confirmation'],
  zh: ['账户菜单', '退出登录', '退出登录确认'],
};

/**
 * Opens a header menu with `open`, picks `item` and waits for `done` (what the pick shows). On a busy
 * machine a pick was seen lost in full-suite runs (the menu closed, nothing happened, the page stayed;
 * never alone; seen for "Log out" and for a language): then the menu is opened and the entry picked
 * again, at most three times, and each loss is printed with the page's URL so it stays visible. A
 * second pick of the same entry does what the first would have done.
 */
export const pickFromMenu = async (
  page: Page,
  { open, item, done, what }: { open: Locator; item: Locator; done: Locator; what: string },
): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await item.isVisible())) await open.click();
      // A menu that closes between the look and the click would hold the click for the whole test.
      await item.click({ timeout: 10_000 });
      await done.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3 || (await done.isVisible())) throw error;
      console.warn(`${what} pick ${attempt} showed nothing on ${page.url()}; picking again`);
    }
  }
};

/** Picks "Log out" in the user menu and returns the confirmation dialog. */
export const askToLogOut = async (page: Page, language: 'en' | 'zh' = 'en') => {
  const [menu, entry, title] = LOGOUT_NAMES[language];
  const dialog = page.getByRole('dialog', { name: title });
  await pickFromMenu(page, {
    open: page.getByRole('button', { name: menu }),
    item: page.getByRole('menuitem', { name: entry }),
    done: dialog,
    what: 'log-out',
  });
  return dialog;
};
