import type { Acl } from '@rampart/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { acceptedNodeCredential, accessLine, shipAccessLines } from './support/ingest.ts';
import { openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

/** Opens an antd select and picks an option; the visible option carries its label as a title. */
const choose = async (page: Page, select: Locator, option: string) => {
  await select.click();
  await page.getByTitle(option, { exact: true }).filter({ visible: true }).click();
};

describe('rule preview on recent traffic', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'quentin');

  /** A site with an hour of traffic: 5 requests from 203.0.113.9, 2 from 203.0.113.10, 3 from 198.51.100.7. */
  const siteWithTraffic = async (token: string, domain: string) => {
    const site = await createSite(suite, token, domain);
    const credential = await acceptedNodeCredential(suite, `edge-${domain}`);
    const at = Date.now() / 1000 - 3600;
    const line = (index: number, client_ip: string, uri: string) =>
      accessLine({ site_id: site.id, time: at + index, client_ip, uri, host: domain, user_agent: 'probe/1.0' });
    await shipAccessLines(suite, credential, 1, [
      ...[0, 1, 2, 3, 4].map((index) => line(index, '203.0.113.9', '/wp-login.php')),
      ...[5, 6].map((index) => line(index, '203.0.113.10', '/wp-admin/')),
      ...[7, 8, 9].map((index) => line(index, '198.51.100.7', '/home')),
    ]);
    return site;
  };

  it('tells what a draft ACL would have blocked before it is saved, and saves nothing', async () => {
    const { token } = await customer();
    const site = await siteWithTraffic(token, 'preview.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await consoleReady(page);
    await page.getByRole('tab', { name: 'Protection', exact: true }).click();
    const section = page.getByTestId('protection-section');
    await section.getByRole('button', { name: 'Add entry' }).click();
    await section.getByLabel('Entry 1 values').fill('203.0.113.0/24');
    // A header the access log does not keep: the entry is named, not guessed.
    await section.getByRole('button', { name: 'Add entry' }).click();
    await choose(page, section.getByRole('combobox', { name: 'Entry 2 field' }), 'Header');
    await section.getByLabel('Entry 2 header name').fill('X-Token');
    await section.getByLabel('Entry 2 values').fill('secret');

    const panel = section.getByTestId('rule-preview');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => panel.getByTestId('rule-preview-sentence').textContent())
      .toBe('In the last 24 h this would have blocked 7 requests from 2 addresses');
    await expect.poll(() => panel.getByTestId('rule-preview-matched').textContent()).toContain('of 10 requests');
    await expect.poll(() => panel.getByTestId('rule-preview-top-addresses').textContent()).toContain('203.0.113.9');
    await expect
      .poll(() => panel.getByTestId('rule-preview-not-evaluated').textContent())
      .toContain('Entry 2 (header X-Token): not evaluated, the access log does not keep request headers');

    const acls = await callApi<{ list: Acl[] }>(suite.master().baseUrl, 'GET', `/v1/acls?site_id=${site.id}`, {
      token,
    });
    expect(acls.list).toEqual([]);
  });

  it('reads in Chinese, without English words beyond the data it shows', async () => {
    const { token } = await customer();
    const site = await siteWithTraffic(token, 'zh-preview.example.com');
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await consoleReady(page);
    await page.getByRole('tab', { name: '安全防护', exact: true }).click();
    const section = page.getByTestId('protection-section');
    await section.getByRole('button', { name: '添加条目' }).click();
    await section.getByLabel('第 1 条 值').fill('203.0.113.0/24');
    await section.getByRole('button', { name: '添加条目' }).click();
    await choose(page, section.getByRole('combobox', { name: '第 2 条 字段' }), '请求头');
    await section.getByLabel('第 2 条 请求头名称').fill('X-Token');
    await section.getByLabel('第 2 条 值').fill('secret');
    const panel = section.getByTestId('rule-preview');
    await panel.getByTestId('rule-preview-run').click();
    await expect
      .poll(() => panel.getByTestId('rule-preview-sentence').textContent())
      .toBe('过去 24 小时内，此规则将拦截来自 2 个地址的 7 个请求');
    await expect
      .poll(() => panel.getByTestId('rule-preview-not-evaluated').textContent())
      .toContain('第 2 条（请求头 X-Token）：未评估，访问日志不记录请求头');
    await panel.getByText('请求样本（7）').click();
    await panel.getByText('GET zh-preview.example.com/wp-login.php').first().waitFor();
    const data = ['zh-preview.example.com', 'X-Token', 'probe/1.0', 'GET', 'IP', /\/[\w./-]*/g, /[\d.:/]+/g];
    const shown = data.reduce<string>(
      (text, value) => (typeof value === 'string' ? text.replaceAll(value, ' ') : text.replace(value, ' ')),
      await panel.innerText(),
    );
    expect(shown.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);
  });

  it('previews a rule group and a match on a site the user picks, picked again for the next editor', async () => {
    const { token } = await customer();
    await siteWithTraffic(token, 'group-preview.example.com');
    const api = <T>(path: string, body: unknown) => callApi<T>(suite.master().baseUrl, 'POST', path, { token, body });
    await api('/v1/cc-matchs', {
      name: 'wordpress probes',
      conditions: [{ field: 'path', op: 'prefix', values: ['/wp-'], negate: false }],
    });
    await api('/v1/cc-filters', { name: 'two a minute', type: 'rate', requests: 2, seconds: 60, per: 'ip' });

    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/rule'));
    await page.getByTestId('rule-page').waitFor();
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add rule group' }));
    await choose(page, drawer.getByRole('combobox', { name: 'Line 1 match' }), 'wordpress probes');
    await choose(page, drawer.getByRole('combobox', { name: 'Line 1 filter' }), 'two a minute');
    const panel = drawer.getByTestId('rule-preview');
    await choose(page, panel.getByRole('combobox', { name: 'Site' }), 'group-preview.example.com');
    await panel.getByRole('button', { name: 'Preview' }).click();
    // Over 2 requests a minute: 3 of 203.0.113.9's 5 go over; 203.0.113.10 stays within.
    await expect
      .poll(() => panel.getByTestId('rule-preview-sentence').textContent())
      .toBe('In the last 24 h this would have blocked 3 requests from 1 address');
    await expect.poll(() => panel.getByTestId('rule-preview-crossings').textContent()).toContain('203.0.113.9');
    await drawer.getByRole('button', { name: 'Close' }).click();

    // A match is tried with one of the user's filters; the site picked last is picked again.
    await page.getByRole('tab', { name: 'Matches' }).click();
    const matchDrawer = await openDialog(page, page.getByRole('button', { name: 'Add match' }));
    await matchDrawer.getByLabel('Condition 1 values').fill('/wp-login');
    const matchPanel = matchDrawer.getByTestId('rule-preview');
    await matchPanel.getByTitle('group-preview.example.com').waitFor();
    await choose(page, matchPanel.getByRole('combobox', { name: 'Filter' }), 'two a minute');
    await choose(page, matchPanel.getByRole('combobox', { name: 'Action' }), 'Ban the IP');
    await matchPanel.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => matchPanel.getByTestId('rule-preview-sentence').textContent())
      .toBe('In the last 24 h this would have blocked 3 requests from 1 address');
    await expect.poll(() => matchPanel.getByTestId('rule-preview-outcomes').textContent()).toContain('Banned 3');
  });
});
