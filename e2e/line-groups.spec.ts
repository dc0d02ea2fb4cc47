import { Resolver } from 'node:dns/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../apps/master/src/test/powerdns.ts';
import { adminToken, callApi } from './support/api.ts';
import { openInApp } from './support/navigate.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { useSuite } from './support/suite.ts';

const ZONE = 'e2e-lines.test';
const CNAME_DOMAIN = `cdn.${ZONE}`;

/** The switch that lets a DNS API URL lead to a private address (PowerDNS is on 127.0.0.1). */
const allowPrivateDnsApis = (dataDir: string) => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    database
      .prepare(
        "INSERT INTO configs (scope_name, scope_id, type, name, value, updated_at) VALUES ('global', 0, 'system', 'dnsapi_allow_private', 'true', ?) ON CONFLICT (scope_name, scope_id, type, name) DO UPDATE SET value = excluded.value",
      )
      .run(Date.now());
  } finally {
    database.close();
  }
};

describe('/node/dns, /node/line-group and set resolution, published to a real PowerDNS', () => {
  let pdns: PowerDns;
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
  });
  afterAll(async () => {
    await pdns?.close();
  });
  const suite = useSuite();

  const admin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  const ask = async (name: string) => {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers([pdns.dnsAddress]);
    return (await resolver.resolve4(name).catch(() => [] as string[])).sort();
  };
  /** An edge node with these IPs, registered and accepted through the API. */
  const addNode = async (hostname: string, ips: string[]) => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const { install_token } = await callApi<{ install_token: string }>(baseUrl, 'GET', '/v1/nodes/install-token', {
      token,
    });
    const { pending_id } = await callApi<{ pending_id: number }>(baseUrl, 'POST', '/agent/v1/register', {
      body: { install_token, hostname, ips, agent_version: '0.1.0' },
    });
    await callApi(baseUrl, 'POST', '/v1/nodes', { token, body: { pending_id, name: hostname } });
  };
  /** Opens a select and picks an option; a click lost while the list opens or closes is made again. */
  const choose = async (page: Page, select: Locator, title: string) => {
    // antd renders each option with its label as the title; the listbox roles are only for screen readers.
    const option = page.locator('.ant-select-dropdown:visible').getByTitle(title, { exact: true });
    for (let attempt = 1; ; attempt++) {
      await select.click();
      try {
        await option.click({ timeout: 10_000 });
        // The list closes with an animation: the next select opens once it is gone.
        await expect.poll(() => option.count()).toBe(0);
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        console.warn(`option ${title} was not picked on attempt ${attempt}; opening the select again`);
      }
    }
  };

  it('publishes a CNAME domain through a DNS API account, and adds a line by hand after checking it', async () => {
    const { baseUrl, dataDir } = suite.master();
    allowPrivateDnsApis(dataDir);
    const token = await admin();
    await callApi(baseUrl, 'POST', '/v1/dnsapis', {
      token,
      body: { name: 'pdns-lines', provider: 'powerdns', credentials: { url: pdns.apiUrl, api_key: pdns.apiKey } },
    });
    await callApi(baseUrl, 'POST', '/v1/cname-domains', { token, body: { domain: CNAME_DOMAIN, is_default: true } });
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/node/dns'));
    await page.getByTestId('dns-settings-page').waitFor();
    await page.getByTestId('dns-accounts-table').getByRole('cell', { name: 'pdns-lines' }).waitFor();

    const dialog = await openDialog(page, page.getByTestId(`cname-domain-edit:${CNAME_DOMAIN}`));
    await choose(page, dialog.getByLabel('DNS API account', { exact: true }), 'pdns-lines (powerdns)');
    const zone = dialog.getByLabel('Zone', { exact: true });
    await zone.fill('Not A Zone');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A zone such as example.net').waitFor();
    await zone.fill('other.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(`${CNAME_DOMAIN} is not in the zone other.test`).waitFor();
    await zone.fill(ZONE);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.getByTestId('cname-domains-table').locator('tbody tr').filter({ hasText: CNAME_DOMAIN });
    await row.getByRole('cell', { name: 'pdns-lines (powerdns)' }).waitFor();
    await row.getByRole('cell', { name: ZONE, exact: true }).waitFor();

    const lineDialog = await openDialog(page, page.getByRole('button', { name: 'Add line' }));
    await lineDialog.getByRole('button', { name: 'Save' }).click();
    await lineDialog.getByText('Code is required').waitFor();
    await lineDialog.getByLabel('Code', { exact: true }).fill('电信');
    await lineDialog.getByLabel('Chinese name', { exact: true }).fill('电信');
    await lineDialog.getByLabel('English name', { exact: true }).fill('Telecom');
    await lineDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('lines-table').getByRole('cell', { name: 'Telecom', exact: true }).waitFor();

    const domains = await callApi<{ list: { domain: string; zone: string }[] }>(baseUrl, 'GET', '/v1/cname-domains', {
      token,
    });
    expect(domains.list.find((entry) => entry.domain === CNAME_DOMAIN)?.zone).toBe(ZONE);
  });

  it('adds a line group after checking its host, sets its resolution, and DNS answers with the chosen IPs', async () => {
    await addNode('edge-lg-1', ['192.0.2.41']);
    await addNode('edge-lg-2', ['192.0.2.42']);
    const page = await suite.openPage({ token: await admin() });
    await page.goto(suite.url('/node/line-group'));
    await page.getByTestId('line-group-page').waitFor();

    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add line group' }));
    await drawer.getByLabel('Name', { exact: true }).fill('Main');
    const host = drawer.getByLabel('Host', { exact: true });
    await host.fill('Bad_Host');
    await page.getByTestId('line-group-submit').click();
    await drawer.getByText('1 to 63 lowercase letters, digits or -, not starting or ending with -').waitFor();
    await host.fill('lg1');
    await drawer.getByText(`One label: lg1 makes lg1.${CNAME_DOMAIN}`).waitFor();
    await page.getByTestId('line-group-submit').click();
    const row = page.getByTestId('line-group-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Main' });
    await row.getByRole('cell', { name: `lg1.${CNAME_DOMAIN}` }).waitFor();

    await page.getByTestId('line-group-resolution:Main').click();
    await page.getByTestId('line-records-page').waitFor();
    await choose(page, page.getByLabel('Add a line', { exact: true }), 'Default');
    await page.getByRole('button', { name: 'Add a line' }).click();
    const card = page.getByTestId('line-card:default');
    await card.getByRole('button', { name: 'Add IP' }).click();
    await page.getByLabel('Weight default 1', { exact: true }).fill('30');
    await choose(page, page.getByLabel('IP default 1', { exact: true }), '192.0.2.41 (edge-lg-1)');
    await choose(page, page.getByLabel('IP default 2', { exact: true }), '192.0.2.42 (edge-lg-2)');
    await page.getByTestId('line-records-save').click();
    await page.getByText('Resolution saved').waitFor();
    await expect.poll(() => ask(`lg1.${CNAME_DOMAIN}`)).toEqual(['192.0.2.41', '192.0.2.42']);

    // The second IP becomes a backup: only the first answers while it is up.
    await page.getByLabel('Backup default 2', { exact: true }).click();
    await page.getByTestId('line-records-save').click();
    await expect.poll(() => ask(`lg1.${CNAME_DOMAIN}`)).toEqual(['192.0.2.41']);

    await page.getByRole('button', { name: 'Back to line groups' }).click();
    await page.getByTestId('line-group-publish:Main').getByText('Published').waitFor();
    await page.getByTestId('line-group-delete:Main').click();
    await confirmPopup(page, { question: 'Delete line group Main?' });
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => ask(`lg1.${CNAME_DOMAIN}`)).toEqual([]);
  });

  it('puts a node into maintenance from /node/list: its IP leaves DNS first, and comes back after', async () => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const lines = await callApi<{ list: { id: number; code: string }[] }>(baseUrl, 'GET', '/v1/lines', { token });
    const domains = await callApi<{ list: { id: number; domain: string }[] }>(baseUrl, 'GET', '/v1/cname-domains', {
      token,
    });
    const defaultLine = lines.list.find((line) => line.code === 'default')?.id;
    await callApi(baseUrl, 'POST', '/v1/node-groups', {
      token,
      body: {
        name: 'Pool',
        cname_domain_id: domains.list.find((entry) => entry.domain === CNAME_DOMAIN)?.id,
        host: 'pool',
        records: [
          { line_id: defaultLine, ip: '192.0.2.41' },
          { line_id: defaultLine, ip: '192.0.2.42' },
        ],
      },
    });
    await expect.poll(() => ask(`pool.${CNAME_DOMAIN}`)).toEqual(['192.0.2.41', '192.0.2.42']);
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/node/list'));
    await page.getByTestId('node-list-page').waitFor();
    await page.getByTestId('node-maintain:edge-lg-1').click();
    await confirmPopup(page, { question: 'Put node edge-lg-1 into maintenance?' });
    await expect.poll(() => page.getByTestId('node-status:edge-lg-1').textContent()).toBe('Maintenance');
    expect(await ask(`pool.${CNAME_DOMAIN}`)).toEqual(['192.0.2.42']);
    await page.getByTestId('node-end-maintenance:edge-lg-1').click();
    await expect.poll(() => page.getByTestId('node-status:edge-lg-1').textContent()).toBe('Offline');
    await expect.poll(() => ask(`pool.${CNAME_DOMAIN}`)).toEqual(['192.0.2.41', '192.0.2.42']);
  });

  it('speaks Chinese', async () => {
    const page = await suite.openPage({ token: await admin(), locale: 'zh-CN' });
    await page.goto(suite.url('/node/line-group'));
    await page.getByRole('button', { name: '添加线路分组' }).waitFor();
    await page.getByRole('columnheader', { name: 'CNAME 主机' }).waitFor();
    await openInApp(page, '/node/dns');
    await page.getByRole('columnheader', { name: '中文名', exact: true }).waitFor();
    await page.getByRole('button', { name: '管理账号' }).waitFor();
    await page.getByRole('button', { name: '添加 CNAME 域名' }).waitFor();
  });
});
