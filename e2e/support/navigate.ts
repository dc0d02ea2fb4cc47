import type { Page } from 'playwright-core';

const RENDER_TIMEOUT_MS = 30_000;

/**
 * Opens a console page (a path, with its query if any) inside the running app, as a menu click does,
 * instead of loading the whole app again: the path goes into the history and the router, which follows
 * popstate, renders it (its code, its data prefetch and its tab included). Resolves once the page
 * content shows an element that was not on screen before, so a check that follows never reads the page
 * it came from. Pages whose route is cached stay in the document, hidden, while their tab is open: a
 * locator that could match one of them too needs `filter({ visible: true })`.
 */
export async function openInApp(page: Page, path: string, timeout = RENDER_TIMEOUT_MS): Promise<void> {
  const shownBefore = await page.evaluateHandle(() => {
    const content = document.querySelector('[data-testid="page-content"]');
    return [...(content?.children ?? [])].filter((child) => child.checkVisibility());
  });
  try {
    await page.evaluate((target) => {
      // The router's own history entry shape: a key and the next index keep back and forward working.
      const state = window.history.state as { idx?: number } | null;
      const next = { usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state?.idx ?? 0) + 1 };
      window.history.pushState(next, '', target);
      window.dispatchEvent(new PopStateEvent('popstate', { state: next }));
    }, `/dashboard${path}`);
    await page.waitForFunction(
      ({ shown, target }) => {
        const content = document.querySelector('[data-testid="page-content"]');
        return (
          `${window.location.pathname}${window.location.search}` === target &&
          [...(content?.children ?? [])].some((child) => !shown.includes(child) && child.checkVisibility())
        );
      },
      { shown: shownBefore, target: `/dashboard${path}` },
      { timeout },
    );
  } finally {
    await shownBefore.dispose();
  }
}
