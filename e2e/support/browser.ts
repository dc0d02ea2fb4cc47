import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });

/** A fresh context (cookies, storage) whose browser language decides the dashboard's language. */
export const newContext = (browser: Browser, baseUrl: string, locale = 'en-US'): Promise<BrowserContext> =>
  browser.newContext({ baseURL: baseUrl, locale });
