import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, newContext } from './browser.ts';
import { type RunningMaster, startMaster } from './master.ts';

export interface Suite {
  master: () => RunningMaster;
  /** A page in a fresh browser context, closed after the test. */
  openPage: (options?: { locale?: string; token?: string }) => Promise<Page>;
  /** The dashboard's URL for an app path, e.g. `/login`. */
  url: (path: string) => string;
}

/** One real master and one browser for the spec file; a fresh browser context per page. */
export const useSuite = (): Suite => {
  let master: RunningMaster | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  /** Script errors and CSP violations: the page must run under the master's CSP without either. */
  const pageProblems: string[] = [];

  beforeAll(async () => {
    master = await startMaster();
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const problems = pageProblems.splice(0);
    if (problems.length > 0) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await master?.stop();
  });

  const running = () => {
    if (!master || !browser) throw new Error('the suite has not started');
    return { master, browser };
  };

  return {
    master: () => running().master,
    url: (path) => `${running().master.baseUrl}/dashboard${path}`,
    openPage: async ({ locale, token } = {}) => {
      const { master: current, browser: chromium } = running();
      const context = await newContext(chromium, current.baseUrl, locale);
      contexts.push(context);
      if (token) await context.addCookies([{ name: 'token', value: token, url: current.baseUrl }]);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) pageProblems.push(`CSP: ${message.text()}`);
      });
      return page;
    },
  };
};
