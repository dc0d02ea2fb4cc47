import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { acceptedNodeCredential, accessLine, shipAccessLines } from './support/ingest.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

// A user agent and a URL that would run script or split headers if they were treated as markup.
const HOSTILE_AGENT = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
const HOSTILE_URL = '/hostile\r\nSet-Cookie: a=1';

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

const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0);

describe('site traffic: realtime charts, top lists and the access log', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'tara');
  let shipped: Promise<void> | undefined;

  /** Tara's site with three lines of the last minutes, one of them hostile, shipped through the ingest API. */
  const world = async () => {
    const { token } = await customer();
    shipped ??= (async () => {
      const site = await createSite(suite, token, 'traffic.example.com');
      const credential = await acceptedNodeCredential(suite, 'edge-monitor');
      const at = Date.now() / 1000 - 120;
      await shipAccessLines(suite, credential, 1, [
        accessLine({ site_id: site.id, time: at, uri: '/home', cache_status: 'HIT' }),
        accessLine({ site_id: site.id, time: at + 1, uri: '/home', client_ip: '203.0.113.5', country: 'US' }),
        accessLine({ site_id: site.id, time: at + 2, uri: HOSTILE_URL, user_agent: HOSTILE_AGENT, status: 404 }),
      ]);
    })();
    await shipped;
    return token;
  };

  const openRealtime = async (locale: string) => {
    const page = await suite.openPage({ token: await world(), locale });
    await page.goto(suite.url('/site/realtime'));
    await consoleReady(page);
    await page.getByTestId('site-realtime-page').waitFor();
    return page;
  };

  it('charts the traffic on canvas and lists the top values as text (en-US)', async () => {
    const page = await openRealtime('en-US');
    const bandwidth = page.getByTestId('chart-bandwidth').locator('canvas');
    await bandwidth.waitFor();
    await expect.poll(() => paintedPixels(bandwidth)).toBeGreaterThan(0);
    await page.getByTestId('chart-requests').locator('canvas').waitFor();
    await page.getByTestId('traffic-totals').getByText('Requests', { exact: true }).waitFor();

    const top = page.getByTestId('top-lists');
    await top.getByRole('row', { name: /\/home\s+2\b/ }).waitFor();
    await top.getByRole('tab', { name: 'User agents' }).click();
    await top.getByText(HOSTILE_AGENT, { exact: true }).waitFor();
    expect(await pwned(page)).toBe(0);
    await top.getByRole('tab', { name: 'Countries' }).click();
    await top.getByRole('row', { name: /United States \(US\)\s+1\b/ }).waitFor();

    // The world map loads after the page, with its outlines, and paints the country.
    const map = page.getByTestId('country-map');
    await map.locator('canvas').waitFor();
    await expect.poll(() => paintedPixels(map.locator('canvas'))).toBeGreaterThan(0);
    expect(await map.getAttribute('data-empty')).toBe('false');
  });

  it('charts the traffic in Chinese (zh-CN)', async () => {
    const page = await openRealtime('zh-CN');
    await page.getByText('带宽', { exact: true }).waitFor();
    await page.getByText('本时间范围', { exact: true }).waitFor();
    await page.getByText('各国家/地区请求数', { exact: true }).waitFor();
    const requests = page.getByTestId('chart-requests').locator('canvas');
    await requests.waitFor();
    await expect.poll(() => paintedPixels(requests)).toBeGreaterThan(0);
  });

  it('shows the access log with hostile strings as text, a drawer with every field, and filters (en-US)', async () => {
    const page = await suite.openPage({ token: await world(), locale: 'en-US' });
    await page.goto(suite.url('/site/access-log'));
    await consoleReady(page);
    const log = page.getByTestId('access-log');
    await log.getByText(HOSTILE_AGENT, { exact: true }).waitFor();
    await page.getByTestId('access-log-total').getByText('3 rows', { exact: true }).waitFor();
    expect(await pwned(page)).toBe(0);

    await log.getByRole('row').filter({ hasText: 'Set-Cookie' }).getByRole('button', { name: 'Details' }).click();
    const line = page.getByTestId('access-log-line');
    await line.getByText(HOSTILE_AGENT, { exact: true }).waitFor();
    await line.getByText(/^\/hostile\s+Set-Cookie: a=1$/).waitFor();
    await expect.poll(() => line.getByText('404', { exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await line.waitFor({ state: 'hidden' });

    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).fill('203.0.113.0/24');
    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).press('Enter');
    await page.getByTestId('access-log-total').getByText('1 row', { exact: true }).waitFor();
    await log.getByText('203.0.113.5', { exact: true }).waitFor();
    await log.getByText('United States', { exact: true }).waitFor();
    expect(await pwned(page)).toBe(0);

    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).fill('');
    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).press('Enter');
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.click();
    await country.fill('Germany');
    await page.locator('.ant-select-dropdown:visible').getByTitle('Germany (DE)', { exact: true }).click();
    await page.getByTestId('access-log-total').getByText('0 rows', { exact: true }).waitFor();
  });

  it('shows the access log in Chinese (zh-CN)', async () => {
    const page = await suite.openPage({ token: await world(), locale: 'zh-CN' });
    await page.goto(suite.url('/site/access-log'));
    await consoleReady(page);
    await page.getByRole('button', { name: '导出 CSV' }).waitFor();
    await page.getByTestId('access-log-total').getByText('共 3 行', { exact: true }).waitFor();
    await page.getByTestId('access-log').getByText(HOSTILE_AGENT, { exact: true }).waitFor();
  });
});
