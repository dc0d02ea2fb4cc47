import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { useSuite } from './support/suite.ts';

interface SetupItem {
  key: string;
  done: boolean | null;
  path: string;
}

describe('admin home on a fresh master: the first-run checklist and empty charts', () => {
  const suite = useSuite();
  const admin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };

  it('lists what is left to set up, each item leading to its page', async () => {
    const token = await admin();
    const { items } = await callApi<{ items: SetupItem[] }>(suite.master().baseUrl, 'GET', '/v1/admin/setup', {
      token,
    });
    expect(items.some((item) => item.done === false)).toBe(true);
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/admin-home'));
    await consoleReady(page);
    const checklist = page.getByTestId('setup-checklist');
    await checklist.getByText('Get the service ready').waitFor();
    for (const item of items.filter((entry) => entry.done !== null)) {
      const entry = checklist.getByTestId(`setup-item:${item.key}`);
      expect(await entry.getAttribute('data-done')).toBe(String(item.done));
      expect(await entry.getByRole('link').getAttribute('href')).toBe(`/dashboard${item.path}`);
    }
    const nodeItem = items.find((item) => item.key === 'node');
    if (!nodeItem) throw new Error('no node item');
    await checklist.getByTestId('setup-item:node').getByRole('link', { name: 'Bring a node online' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard${nodeItem.path}`);
  });

  it('draws an all-zero chart with distinct axis labels and says there is no data, in both languages', async () => {
    const token = await admin();
    for (const [locale, empty] of [
      ['en-US', 'No data in this period'],
      ['zh-CN', '该时段暂无数据'],
    ] as const) {
      const page = await suite.openPage({ token, locale });
      await page.goto(suite.url('/admin-home'));
      const chart = page.getByTestId('overview-trend');
      await chart.waitFor();
      await expect.poll(() => chart.getAttribute('data-y-labels')).toBeTruthy();
      const labels = ((await chart.getAttribute('data-y-labels')) ?? '').split('|');
      expect(labels.length).toBeGreaterThan(2);
      expect(new Set(labels).size).toBe(labels.length);
      expect(labels[0]).toBe('0 B');
      await page.getByTestId('overview-trend-empty').getByText(empty).waitFor();
    }
  });
});
