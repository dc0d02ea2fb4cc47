import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import {
  acceptedNodeCredential,
  accessLine,
  sendNodeMetrics,
  shipAccessLines,
  shipStreamLines,
  streamLine,
} from './support/ingest.ts';
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

const NODE_NAME = 'edge-fleet-7';

describe('stream and node monitoring: /stream/realtime and /node/realtime', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'sven');
  let world: Promise<{ customer: string; admin: string; credential: string }> | undefined;

  /**
   * Sven's TCP stream with three connections of the last minutes, shipped through the ingest API by
   * an accepted node, which also reports its metrics (with a site minute) and serves a request.
   */
  const setUp = () => {
    world ??= (async () => {
      const { token } = await customer();
      const { baseUrl, adminPassword } = suite.master();
      const stream = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/streams', {
        token,
        body: {
          listen_port: 3306,
          protocol: 'tcp',
          origins: [{ address: '127.0.0.1', port: 13306, weight: 1, backup: false }],
        },
      });
      const site = await createSite(suite, token, 'fleet.example.com');
      const credential = await acceptedNodeCredential(suite, NODE_NAME);
      const at = Date.now() / 1000 - 120;
      await shipStreamLines(suite, credential, 1, [
        streamLine({ stream_id: stream.id, time: at }),
        streamLine({ stream_id: stream.id, time: at + 1, client_ip: '203.0.113.5' }),
        streamLine({ stream_id: stream.id, time: at + 2, status: 502, bytes_sent: 0 }),
      ]);
      await shipAccessLines(suite, credential, 2, [
        accessLine({ site_id: site.id, time: at, client_ip: '192.0.2.44' }),
      ]);
      const now = Math.floor(Date.now() / 1000);
      const minute = Math.floor((now - 60) / 60) * 60;
      for (const [offset, cpu] of [
        [-40, 20],
        [-30, 40],
      ] as const) {
        await sendNodeMetrics(suite, credential, {
          time: now + offset,
          cpu_percent: cpu,
          memory_used_bytes: 2_000_000_000,
          memory_total_bytes: 8_000_000_000,
          load1: 0.7,
          load5: 0.5,
          load15: 0.3,
          disk_used_bytes: 30_000_000_000,
          disk_total_bytes: 100_000_000_000,
          connections: 12,
          nginx_up: true,
          bytes_in: 50_000,
          bytes_out: 900_000,
          requests: 40,
          sites: [
            {
              site_id: site.id,
              minute,
              requests: 40,
              bytes_in: 50_000,
              bytes_out: 900_000,
              status_2xx: 40,
              status_3xx: 0,
              status_4xx: 0,
              status_5xx: 0,
              cache_hits: 0,
            },
          ],
        });
      }
      return { customer: token, admin: await adminToken(baseUrl, adminPassword), credential };
    })();
    return world;
  };

  const openStreamRealtime = async (locale: string) => {
    const page = await suite.openPage({ token: (await setUp()).customer, locale });
    await page.goto(suite.url('/stream/realtime'));
    await consoleReady(page);
    await page.getByTestId('stream-realtime-page').waitFor();
    return page;
  };

  it('charts a stream’s bandwidth and connections, lists its top client IPs and ports and its connection log (en-US)', async () => {
    const page = await openStreamRealtime('en-US');
    const bandwidth = page.getByTestId('chart-stream-bandwidth').locator('canvas');
    await bandwidth.waitFor();
    await expect.poll(() => paintedPixels(bandwidth), { timeout: 20_000 }).toBeGreaterThan(0);
    const connections = page.getByTestId('chart-stream-connections').locator('canvas');
    await expect.poll(() => paintedPixels(connections), { timeout: 20_000 }).toBeGreaterThan(0);

    const totals = page.getByTestId('stream-totals');
    await totals.getByText('Connections', { exact: true }).waitFor();
    await totals.getByText('3', { exact: true }).waitFor();
    const top = page.getByTestId('stream-top-lists');
    await top.getByRole('row', { name: /198\.51\.100\.7\s+2\b/ }).waitFor();
    await top.getByRole('tab', { name: 'Ports' }).click();
    await top.getByRole('row', { name: /3306\/tcp\s+3\b/ }).waitFor();

    // The connection log: every line, then narrowed by a CIDR.
    const log = page.getByTestId('stream-log');
    await page.getByTestId('stream-log-total').getByText('3 rows', { exact: true }).waitFor();
    await log.getByRole('searchbox', { name: 'Client IP or CIDR' }).fill('203.0.113.0/24');
    await log.getByRole('searchbox', { name: 'Client IP or CIDR' }).press('Enter');
    await page.getByTestId('stream-log-total').getByText('1 row', { exact: true }).waitFor();
    await log.getByText('203.0.113.5', { exact: true }).waitFor();
  });

  it('charts a stream in Chinese (zh-CN)', async () => {
    const page = await openStreamRealtime('zh-CN');
    await page.getByText('每个时间点的连接数', { exact: true }).waitFor();
    await page.getByTestId('stream-totals').getByText('连接数', { exact: true }).waitFor();
    await page.getByTestId('stream-log-total').getByText('共 3 行', { exact: true }).waitFor();
    const bandwidth = page.getByTestId('chart-stream-bandwidth').locator('canvas');
    await bandwidth.waitFor();
    await expect.poll(() => paintedPixels(bandwidth), { timeout: 20_000 }).toBeGreaterThan(0);
  });

  const openNodeRealtime = async (locale: string) => {
    const { admin, credential } = await setUp();
    // A report now, as the agent sends every few seconds: the node stays online however long the
    // tests before took (the same gauges, no traffic, so every figure checked stays).
    await sendNodeMetrics(suite, credential, {
      time: Math.floor(Date.now() / 1000),
      cpu_percent: 40,
      memory_used_bytes: 2_000_000_000,
      memory_total_bytes: 8_000_000_000,
      load1: 0.7,
      load5: 0.5,
      load15: 0.3,
      disk_used_bytes: 30_000_000_000,
      disk_total_bytes: 100_000_000_000,
      connections: 12,
      nginx_up: true,
      bytes_in: 0,
      bytes_out: 0,
      requests: 0,
      sites: [],
    });
    const page = await suite.openPage({ token: admin, locale });
    await page.goto(suite.url('/node/realtime'));
    await consoleReady(page);
    await page.getByTestId('node-realtime-page').waitFor();
    return page;
  };

  it('shows every node now, its charts, the sites it served and the client IPs it saw (en-US)', async () => {
    const page = await openNodeRealtime('en-US');
    const row = page.getByTestId('node-fleet').getByRole('row').filter({ hasText: NODE_NAME });
    await row.getByText('Online', { exact: true }).waitFor();
    await row.getByText('40%', { exact: true }).waitFor();
    await row.getByText('0.7 / 0.5 / 0.3', { exact: true }).waitFor();
    await row.getByText('OK', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Charts ${NODE_NAME}` }).click();

    for (const kind of ['bandwidth', 'cpu', 'disk']) {
      const canvas = page.getByTestId(`chart-node-${kind}`).locator('canvas');
      await canvas.waitFor();
      await expect.poll(() => paintedPixels(canvas), { timeout: 20_000 }).toBeGreaterThan(0);
    }
    await page.getByTestId('node-totals').getByText('80', { exact: true }).waitFor();
    await page
      .getByTestId('node-top-sites')
      .getByRole('row', { name: /fleet\.example\.com\s+40\b/ })
      .waitFor();
    const ipLog = page.getByTestId('node-ip-log');
    await ipLog.getByText('198.51.100.7', { exact: true }).waitFor();
    await ipLog.getByText('192.0.2.44', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).fill('192.0.2.0/24');
    await page.getByRole('searchbox', { name: 'Client IP or CIDR' }).press('Enter');
    await ipLog.getByText('198.51.100.7', { exact: true }).waitFor({ state: 'detached' });
    await ipLog.getByText('192.0.2.44', { exact: true }).waitFor();
  });

  it('shows node monitoring in Chinese (zh-CN), and not to a customer', async () => {
    const page = await openNodeRealtime('zh-CN');
    await page.getByText('节点现状', { exact: true }).waitFor();
    const row = page.getByTestId('node-fleet').getByRole('row').filter({ hasText: NODE_NAME });
    await row.getByText('在线', { exact: true }).waitFor();
    const cpu = page.getByTestId('chart-node-cpu').locator('canvas');
    await cpu.waitFor();
    await expect.poll(() => paintedPixels(cpu), { timeout: 20_000 }).toBeGreaterThan(0);

    const { baseUrl } = suite.master();
    const refused = await fetch(`${baseUrl}/v1/monitor/nodes`, {
      headers: { 'Access-Token': (await setUp()).customer },
    });
    expect(refused.status).toBe(403);
  });
});
