import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { newContext, sharedBrowser } from './browser.ts';
import { type RunningMaster, startMaster } from './master.ts';

/** The cookie and local-storage key of the layout settings (the dashboard's app id is `rampart`). */
export const SETTINGS_KEY = 'rampart-layout-settings';

export interface PageOptions {
  locale?: string;
  token?: string;
  /** Window size; the default is 1280 x 800 (desktop). */
  width?: number;
  height?: number;
  /** Layout settings the page starts with, over the defaults (as if chosen in the drawer). */
  settings?: Record<string, string | boolean>;
  /** Page errors the test causes on purpose; any other page error fails the test. */
  expectedErrors?: RegExp;
}

export interface Suite {
  master: () => RunningMaster;
  /** A page in a fresh browser context, closed after the test. */
  openPage: (options?: PageOptions) => Promise<Page>;
  /** The dashboard's URL for an app path, e.g. `/login`. */
  url: (path: string) => string;
}

/** One real master for the spec file, the worker's browser, and a fresh browser context per page. */
export const useSuite = (): Suite => {
  let master: RunningMaster | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  /** Script errors and CSP violations: the page must run under the master's CSP without either. */
  const pageProblems: string[] = [];

  beforeAll(async () => {
    [master, browser] = await Promise.all([startMaster(), sharedBrowser()]);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const problems = pageProblems.splice(0);
    if (problems.length > 0) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
  });
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await master?.stop();
  });

  const running = () => {
    if (!master || !browser) throw new Error('the suite has not started');
    return { master, browser };
  };

  return {
    master: () => running().master,
    url: (path) => `${running().master.baseUrl}/dashboard${path}`,
    openPage: async ({ locale, token, width = 1280, height = 800, settings, expectedErrors } = {}) => {
      const { master: current, browser: chromium } = running();
      const context = await newContext(chromium, current.baseUrl, locale);
      contexts.push(context);
      const url = current.baseUrl;
      if (token) await context.addCookies([{ name: 'token', value: token, url }]);
      if (settings) {
        const value = encodeURIComponent(JSON.stringify({ layout: settings }));
        await context.addCookies([{ name: SETTINGS_KEY, value, url }]);
      }
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      page.on('pageerror', (error) => {
        if (!expectedErrors?.test(error.message)) pageProblems.push(`page error: ${error.message}`);
      });
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) pageProblems.push(`CSP: ${message.text()}`);
      });
      return page;
    },
  };
};
