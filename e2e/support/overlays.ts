import type { Page } from 'playwright-core';

const CLOSE_TIMEOUT_MS = 30_000;

/**
 * Answers the open Popconfirm with its Confirm button and waits until it has closed. A closing
 * popconfirm stays on screen for its animation; waiting here means the next one a test opens is the
 * only one on the page, so its Confirm button is found once, however slow the machine.
 * `question` picks the popconfirm by its text; `staysOpen` is for a confirmation the page refuses.
 */
export async function confirmPopup(
  page: Page,
  { question, staysOpen = false }: { question?: string; staysOpen?: boolean } = {},
): Promise<void> {
  const popups = page.getByRole('tooltip').filter({ has: page.getByRole('button', { name: 'Confirm' }) });
  const popup = question === undefined ? popups : popups.filter({ hasText: question });
  await popup.getByRole('button', { name: 'Confirm' }).click();
  if (staysOpen) return;
  const deadline = Date.now() + CLOSE_TIMEOUT_MS;
  while ((await popups.count()) > 0) {
    if (Date.now() > deadline) throw new Error(`the popconfirm did not close within ${CLOSE_TIMEOUT_MS} ms`);
    await page.waitForTimeout(50);
  }
}
