import type { Locator, Page } from 'playwright-core';

const CLOSE_TIMEOUT_MS = 30_000;

/** Waits until `overlays` matches nothing on screen (a closing drawer or popconfirm stays for its animation). */
async function untilClosed(page: Page, overlays: Locator, what: string, timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await overlays.count()) > 0) {
    if (Date.now() > deadline) throw new Error(`${what} did not close within ${timeoutMs} ms`);
    await page.waitForTimeout(50);
  }
}

/**
 * Answers the open Popconfirm with its Confirm button and waits until it has closed, so the next
 * one a test opens is the only one on the page, however slow the machine. `question` picks the
 * popconfirm by its text; `staysOpen` is for a confirmation the page refuses.
 */
export async function confirmPopup(
  page: Page,
  { question, staysOpen = false }: { question?: string; staysOpen?: boolean } = {},
): Promise<void> {
  const popups = page.getByRole('tooltip').filter({ has: page.getByRole('button', { name: 'Confirm' }) });
  const popup = question === undefined ? popups : popups.filter({ hasText: question });
  const confirm = popup.getByRole('button', { name: 'Confirm' });
  await confirm.click();
  if (staysOpen) return;
  // On a loaded machine a click can land while the popup is still being placed, and miss the button
  // (the popup then stays, its button idle): it is clicked again, at most twice more. A button that
  // is working (loading) is left alone, so an action is never confirmed twice.
  for (let retry = 1; retry <= 2; retry++) {
    try {
      await untilClosed(page, popups, 'the popconfirm', 10_000);
      return;
    } catch {
      const idle = (await confirm.count()) === 1 && !(await confirm.getAttribute('class'))?.includes('ant-btn-loading');
      if (!idle) break;
      console.warn(`popconfirm confirm ${retry} left it open on ${page.url()}; confirming again`);
      await confirm.click({ timeout: 10_000 }).catch(() => undefined);
    }
  }
  await untilClosed(page, popups, 'the popconfirm');
}

/**
 * Clicks `trigger` once no other drawer or modal is on screen and returns the dialog it opens: a
 * drawer that an earlier step closed may still be animating out, and would be a second match.
 */
export async function openDialog(page: Page, trigger: Locator): Promise<Locator> {
  const dialogs = page.getByRole('dialog');
  await untilClosed(page, dialogs, 'the previous dialog');
  await trigger.click();
  await dialogs.waitFor();
  return dialogs;
}
