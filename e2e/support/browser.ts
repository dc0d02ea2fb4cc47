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

let shared: Promise<Browser> | undefined;

/**
 * The test worker's browser, launched by the first spec file that asks and kept for the next ones
 * (the e2e project runs its files one after another in each worker, without isolation): a launch
 * costs about a second of both cores. Each file still gets fresh contexts. Launched again if it
 * went away; it ends with the worker (Playwright closes what it launched when the process exits).
 */
export const sharedBrowser = (): Promise<Browser> => {
  if (!shared) {
    const launching = launchBrowser();
    shared = launching;
    launching.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (shared === launching) shared = undefined;
        }),
      () => {
        if (shared === launching) shared = undefined;
      },
    );
  }
  return shared;
};

/**
 * A fresh context (cookies, storage) whose browser language decides the dashboard's language. It
 * asks for reduced motion, so antd's popups and dialogs open without animating: a click that lands
 * while one is still zooming in was seen lost on busy and quiet machines alike.
 */
export const newContext = (browser: Browser, baseUrl: string, locale = 'en-US'): Promise<BrowserContext> =>
  browser.newContext({ baseURL: baseUrl, locale, reducedMotion: 'reduce' });
