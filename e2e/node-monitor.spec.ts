import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { useSuite } from './support/suite.ts';

describe('/node/monitor-setting: health checks, IP states and the IP-switch log', () => {
  const suite = useSuite();
  let edge: Server | undefined;

  afterEach(async () => {
    edge?.closeAllConnections();
    await new Promise<void>((resolve) => (edge ? edge.close(() => resolve()) : resolve()));
    edge = undefined;
  });

  const listen = async (ip: string, port: number) => {
    edge = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => edge?.listen(port, ip, resolve));
    return (edge.address() as AddressInfo).port;
  };
  const admin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  /** A node whose web server listens on its own loopback address, accepted as an agent would be. */
  const addNode = async (hostname: string, ip: string) => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const port = await listen(ip, 0);
    const { install_token } = await callApi<{ install_token: string }>(baseUrl, 'GET', '/v1/nodes/install-token', {
      token,
    });
    const { pending_id } = await callApi<{ pending_id: number }>(baseUrl, 'POST', '/agent/v1/register', {
      body: { install_token, hostname, ips: [ip], agent_version: '0.1.0' },
    });
    await callApi(baseUrl, 'POST', '/v1/nodes', {
      token,
      body: { pending_id, name: hostname, http_port: port },
    });
  };
  const openMonitor = async (locale?: string): Promise<Page> => {
    const page = await suite.openPage({ token: await admin(), ...(locale && { locale }) });
    await page.goto(suite.url('/node/monitor-setting'));
    await page.getByTestId('node-monitor-page').waitFor();
    return page;
  };
  const stateRow = (page: Page, ip: string) =>
    page.getByTestId('ip-state-table').locator('tbody tr.ant-table-row').filter({ hasText: ip });

  it('saves checked settings, and shows a dead node’s IP going down and coming back in the states and the log', async () => {
    const page = await openMonitor();
    const form = page.getByTestId('monitor-settings-form');
    await expect.poll(() => form.getByLabel('Interval (seconds)').inputValue()).toBe('30.0');
    await expect.poll(() => form.getByLabel('Failures before down').inputValue()).toBe('3');
    // TCP by default; an HTTP probe asks for a path and a status.
    await expect.poll(() => form.getByLabel('HTTP path').count()).toBe(0);
    await form.getByText('HTTP', { exact: true }).click();

    await form.getByLabel('Interval (seconds)').fill('1');
    await form.getByLabel('Timeout (seconds)').fill('2');
    await page.getByTestId('monitor-settings-save').click();
    await form.getByText('The timeout must not be longer than the interval').waitFor();
    await form.getByLabel('HTTP path').fill('/health check');
    await page.getByTestId('monitor-settings-save').click();
    await form.getByText('A path starting with /, without spaces or quotes').waitFor();

    await form.getByLabel('HTTP path').fill('/');
    await form.getByLabel('Interval (seconds)').fill('0.5');
    await form.getByLabel('Timeout (seconds)').fill('0.5');
    await form.getByLabel('Failures before down').fill('2');
    await form.getByLabel('Successes before up').fill('1');
    await page.getByTestId('monitor-settings-save').click();
    await page.getByText('Monitor settings saved').waitFor();
    const { baseUrl } = suite.master();
    expect(await callApi(baseUrl, 'GET', '/v1/configs/global-0-node-monitor', { token: await admin() })).toMatchObject({
      probe: 'http',
      path: '/',
      interval_seconds: 0.5,
      timeout_seconds: 0.5,
      failures: 2,
      successes: 1,
    });

    await addNode('edge-mon', '127.0.0.51');
    const row = stateRow(page, '127.0.0.51');
    await row.getByText('Up', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByText('master: OK ×', { exact: false }).first().waitFor({ timeout: 30_000 });

    const server = edge;
    const port = (server?.address() as AddressInfo | undefined)?.port ?? 0;
    edge = undefined;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await row.getByText('Down', { exact: true }).waitFor({ timeout: 30_000 });
    await listen('127.0.0.51', port);
    await row.getByText('Up', { exact: true }).waitFor({ timeout: 30_000 });

    await page.getByRole('tab', { name: 'IP-switch log' }).click();
    const log = page.getByTestId('ip-switch-table');
    const entry = log.locator('tbody tr.ant-table-row').filter({ hasText: '127.0.0.51' });
    await entry.getByText('1 of 1 probes failed 2 times in a row: ECONNREFUSED').waitFor();
    await entry.getByText('1 of 1 probes succeeded once in a row').waitFor();
    await expect.poll(() => entry.count()).toBe(2);
    await page.getByLabel('IP', { exact: true }).fill('192.0.2.99');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => entry.count()).toBe(0);
  });

  it('speaks Chinese', async () => {
    const page = await openMonitor('zh-CN');
    await page.getByText('健康检查', { exact: true }).waitFor();
    await page.getByText('判定宕机的失败次数').waitFor();
    await page.getByRole('tab', { name: 'IP 切换日志' }).waitFor();
  });
});
