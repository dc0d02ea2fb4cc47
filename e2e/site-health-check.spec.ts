import { randomBytes } from 'node:crypto';
import { DEFAULT_SITE_HEALTH_CHECK, type Site } from '@rampart/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { saveSite } from './support/site-edit.ts';
import { useSuite } from './support/suite.ts';
import { openTab } from './support/tabs.ts';

describe('origin health checks on the site edit page', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'hedda');
  const domain = `hc-${randomBytes(4).toString('hex')}.example.com`;
  let site: Site | undefined;

  /** Opens the health check tab (past the tab bar's width in English). */
  const openHealthTab = async (page: Page, name: string) => {
    await openTab(page, name);
    await page.getByTestId('health-check-section').waitFor();
  };

  /** The site's edit page on its health check tab. */
  const openHealthCheck = async (locale?: string): Promise<Page> => {
    const { token } = await customer();
    site ??= await createSite(suite, token, domain);
    const page = await suite.openPage({ token, locale });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await page.getByTestId('site-edit-page').waitFor();
    await openHealthTab(page, locale === 'zh-CN' ? '健康检查' : 'Health checks');
    return page;
  };

  /** Clicks save and returns the master's answer to the PUT. */
  const save = (page: Page) => saveSite(page, site?.id);

  it('turns the check on with a path, a Host and statuses; the values and the origin states are there after a reload', async () => {
    const page = await openHealthCheck();
    await page.getByRole('switch', { name: 'Health checks' }).click();
    await page.getByRole('textbox', { name: 'Path' }).fill('/healthz?full=1');
    await page.getByRole('textbox', { name: 'Host header' }).fill('origin.example.net');
    const statuses = page.getByRole('combobox', { name: 'Healthy statuses' });
    await statuses.fill('204');
    await statuses.press('Enter');
    await page.getByRole('spinbutton', { name: 'Failures to take out' }).fill('4');
    expect((await save(page)).code).toBe(0);

    const { token } = await customer();
    const stored = await callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site?.id}`, { token });
    expect(stored.health_check).toEqual({
      ...DEFAULT_SITE_HEALTH_CHECK,
      enabled: true,
      path: '/healthz?full=1',
      host: 'origin.example.net',
      statuses: [200, 204],
      failures: 4,
    });

    await page.reload();
    await page.getByTestId('site-edit-page').waitFor();
    await openHealthTab(page, 'Health checks');
    expect(await page.getByRole('switch', { name: 'Health checks' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('textbox', { name: 'Path' }).inputValue()).toBe('/healthz?full=1');
    expect(await page.getByRole('spinbutton', { name: 'Failures to take out' }).inputValue()).toBe('4');
    // Saved on: the states the nodes report show above the form (none has reported yet).
    await page.getByTestId('origin-states').getByText('No node has reported its checks of this site yet').waitFor();
  });

  it('refuses a timeout longer than the interval at the timeout, and sends nothing', async () => {
    const page = await openHealthCheck();
    await page.getByRole('spinbutton', { name: 'Interval' }).fill('2');
    const timeout = page.getByRole('spinbutton', { name: 'Timeout' });
    await timeout.fill('5');
    await page.getByTestId('site-save').click();
    await page.getByTestId('health-check-section').getByText('At most the interval (2 seconds)').waitFor();
    expect(await timeout.getAttribute('aria-invalid')).toBe('true');
    const { token } = await customer();
    const stored = await callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site?.id}`, { token });
    expect(stored.health_check?.timeout).toBe(DEFAULT_SITE_HEALTH_CHECK.timeout);
  });

  it('shows the section in Chinese', async () => {
    const page = await openHealthCheck('zh-CN');
    await page.getByRole('textbox', { name: '检查路径' }).waitFor();
    await page.getByRole('spinbutton', { name: '恢复前成功次数' }).waitFor();
  });
});
