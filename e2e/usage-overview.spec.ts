import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { acceptedNodeCredential, accessLine, shipAccessLines } from './support/ingest.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

/** How many pixels of a canvas are painted: ECharts draws on canvas, so an empty one is a chart that failed. */
const paintedPixels = (canvas: Locator) =>
  canvas.evaluate((element) => {
    const node = element as HTMLCanvasElement;
    const context = node.getContext('2d');
    if (!context || node.width === 0 || node.height === 0) return 0;
    const pixels = context.getImageData(0, 0, node.width, node.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
    return painted;
  });

const chartPainted = async (page: Page, testId: string) => {
  const canvas = page.getByTestId(testId).locator('canvas').first();
  await canvas.waitFor();
  await expect.poll(() => paintedPixels(canvas)).toBeGreaterThan(0);
};

// Three lines of 2,500,000 bytes in one 5-minute sample: 7.5 MB this month and today, a peak of
// 7,500,000 · 8 / 300 = 200 Kbps.
const TRAFFIC = '7.5 MB';
const PEAK = '200 Kbps';

describe('usage and the overview pages', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'uma');
  let shipped: Promise<void> | undefined;

  /** Uma's site with three lines of a few seconds ago, shipped through the ingest API. */
  const world = async () => {
    const { token } = await customer();
    shipped ??= (async () => {
      const site = await createSite(suite, token, 'usage.example.com');
      const credential = await acceptedNodeCredential(suite, 'edge-usage');
      // Within the current 5-minute sample, day and month unless the test starts on their edge.
      const at = Math.max(Math.floor(Date.now() / 300_000) * 300, Date.now() / 1000 - 5);
      await shipAccessLines(
        suite,
        credential,
        1,
        [0, 0.2, 0.4].map((offset) => accessLine({ site_id: site.id, time: at + offset, bytes_sent: 2_500_000 })),
      );
    })();
    await shipped;
    return token;
  };

  const admin = async () => {
    await world();
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };

  const open = async (token: string, path: string, locale: string) => {
    const page = await suite.openPage({ token, locale });
    await page.goto(suite.url(path));
    await consoleReady(page);
    return page;
  };

  it("shows the user's month with its figures, per-site table and chart (en-US)", async () => {
    const page = await open(await world(), '/user-package/usage', 'en-US');
    await page.getByTestId('usage-page').waitFor();
    await page.getByTestId('usage-bytesOut').getByText(TRAFFIC, { exact: true }).waitFor();
    await page.getByTestId('usage-peak').getByText(PEAK, { exact: true }).waitFor();
    await page.getByTestId('usage-p95').getByText('95th percentile', { exact: true }).waitFor();
    await page
      .getByTestId('usage-sites')
      .getByRole('row', { name: /usage\.example\.com\s+7\.5 MB/ })
      .waitFor();
    await chartPainted(page, 'usage-chart');
  });

  it("shows the user's month in Chinese (zh-CN)", async () => {
    const page = await open(await world(), '/user-package/usage', 'zh-CN');
    await page.getByTestId('usage-bytesOut').getByText('发送流量', { exact: true }).waitFor();
    await page.getByTestId('usage-bytesOut').getByText(TRAFFIC, { exact: true }).waitFor();
    await chartPainted(page, 'usage-chart');
  });

  it('ranks the users for the admin and shows the one picked (en-US)', async () => {
    const page = await open(await admin(), '/package/monitor', 'en-US');
    const row = page.getByTestId('usage-ranking').getByRole('row', { name: /uma/ });
    await row.getByText(TRAFFIC, { exact: true }).waitFor();
    await row.click();
    await page.getByText('Usage of uma', { exact: true }).waitFor();
    await page.getByTestId('usage-figures').getByText(TRAFFIC, { exact: true }).waitFor();
    await chartPainted(page, 'usage-chart');
  });

  it("shows the user's home with today's figures and the trend", async () => {
    const page = await open(await world(), '/home', 'en-US');
    await page.getByTestId('home-page').waitFor();
    await page.getByTestId('overview-figure-traffic').getByText(TRAFFIC, { exact: true }).waitFor();
    await page.getByTestId('overview-figure-requests').getByText('3', { exact: true }).waitFor();
    await page.getByTestId('overview-figure-sites').getByText('1', { exact: true }).waitFor();
    await chartPainted(page, 'overview-trend');
  });

  it("shows the admin's home with the fleet, today's traffic, top sites and the trend (en-US and zh-CN)", async () => {
    const token = await admin();
    const page = await open(token, '/admin-home', 'en-US');
    await page.getByTestId('admin-home-page').waitFor();
    await page.getByTestId('overview-figure-traffic').getByText(TRAFFIC, { exact: true }).waitFor();
    await page.getByTestId('overview-figure-users').getByText('Users', { exact: true }).waitFor();
    await page.getByTestId('overview-figure-packages-sold').getByText('0', { exact: true }).waitFor();
    await page
      .getByTestId('overview-top-sites')
      .getByRole('row', { name: /usage\.example\.com\s+7\.5 MB\s+3/ })
      .waitFor();
    await chartPainted(page, 'overview-trend');

    const chinese = await open(token, '/admin-home', 'zh-CN');
    await chinese.getByTestId('overview-figure-traffic').getByText('发送流量', { exact: true }).waitFor();
    await chinese.getByTestId('overview-figure-traffic').getByText(TRAFFIC, { exact: true }).waitFor();
    await chartPainted(chinese, 'overview-trend');
  });
});
