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

/**
 * A fresh context (cookies, storage) whose browser language decides the dashboard's language. It
 * asks for reduced motion, so antd's popups and dialogs open without animating: a click that lands
 * while one is still zooming in was seen lost on busy and quiet machines alike.
 */
export const newContext = (browser: Browser, baseUrl: string, locale = 'en-US'): Promise<BrowserContext> =>
  browser.newContext({ baseURL: baseUrl, locale, reducedMotion: 'reduce' });
