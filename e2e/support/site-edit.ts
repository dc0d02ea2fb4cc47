import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Clicks the site edit page's save button and returns the master's answer to the PUT of site `siteId`. */
export async function saveSite(page: Page, siteId: number | undefined): Promise<{ code: unknown; msg: string }> {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PUT' && response.url().includes(`/v1/sites/${siteId}`),
  );
  const button = page.getByTestId('site-save');
  // A button still loading from the previous save ignores the click.
  await expect.poll(() => button.getAttribute('class')).not.toContain('ant-btn-loading');
  await button.click();
  return (await (await saved).json()) as { code: unknown; msg: string };
}
