import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's headless Chromium, with `hosts` resolving to 127.0.0.1 (the edge under test answers
 * them by Host header and SNI).
 */
export const launchChromium = (hosts: readonly string[]): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.RAMPART_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      `--host-resolver-rules=${hosts.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`,
    ],
  });
