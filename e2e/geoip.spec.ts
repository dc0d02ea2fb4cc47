import type { Acl } from '@rampart/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { writeMmdb } from '../apps/master/src/test/mmdb-writer.ts';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';
import { openTab } from './support/tabs.ts';

/** Opens an antd select and picks an option; the visible option carries its label as a title. */
const choose = async (page: Page, select: Locator, option: string) => {
  await select.click();
  await page.getByTitle(option, { exact: true }).filter({ visible: true }).click();
};

describe('country conditions: the GeoIP database and the ACL editor', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'gina');

  it('shows the database in use, takes an upload in its place and goes back (en-US, zh-CN)', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/sys/op'));
    await page.getByTestId('sys-op-page').waitFor();
    await openTab(page, 'GeoIP database');
    const panel = page.getByTestId('geoip-panel');
    await panel.getByText('Bundled with the master', { exact: true }).waitFor();

    const database = writeMmdb([{ cidr: '10.0.0.0/8', data: { country: { iso_code: 'FR' } } }], {
      databaseType: 'E2E-Country',
    });
    await panel
      .getByLabel('MaxMind DB file (.mmdb)')
      .setInputFiles({ name: 'e2e.mmdb', mimeType: 'application/octet-stream', buffer: database });
    await panel.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('The database was replaced; edges load it with the next config.').waitFor();
    await panel.getByText('E2E-Country', { exact: true }).waitFor();
    await panel.getByText('e2e.mmdb', { exact: true }).waitFor();

    // What is not a MaxMind DB is refused with the master's reason, and the upload stays.
    await panel
      .getByLabel('MaxMind DB file (.mmdb)')
      .setInputFiles({ name: 'countries.csv', mimeType: 'text/csv', buffer: Buffer.from('CN,1\n') });
    await panel.getByRole('button', { name: 'Upload' }).click();
    await page.getByText(/not a MaxMind DB file/).waitFor();
    await panel.getByText('E2E-Country', { exact: true }).waitFor();

    await panel.getByRole('button', { name: 'Use the bundled database' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('The bundled database is in use again.').waitFor();
    await panel.getByText('Bundled with the master', { exact: true }).waitFor();
    const current = await callApi<{ source: string }>(baseUrl, 'GET', '/v1/geoip', { token });
    expect(current.source).toBe('bundled');

    const zh = await suite.openPage({ token, locale: 'zh-CN' });
    await zh.goto(suite.url('/sys/op'));
    await zh.getByTestId('sys-op-page').waitFor();
    await openTab(zh, 'GeoIP 数据库');
    await zh.getByTestId('geoip-panel').getByText('主控内置', { exact: true }).waitFor();
  });

  it('saves a country entry of a site ACL in upper case, and refuses what is no country code', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'countries.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await consoleReady(page);
    await page.getByRole('tab', { name: 'Protection', exact: true }).click();
    const section = page.getByTestId('protection-section');
    await section.getByRole('button', { name: 'Add entry' }).click();
    await choose(page, section.getByRole('combobox', { name: 'Entry 1 field' }), 'Country');
    await section.getByLabel('Entry 1 values').fill('cn\nZZ');
    await section.getByTestId('protection-save').click();
    await section.getByText('ZZ is not allowed: an ISO 3166-1 alpha-2 country code such as CN or US').waitFor();
    await section.getByLabel('Entry 1 values').fill('cn\nkp');
    const saved = page.waitForResponse((response) => response.url().endsWith('/v1/acls'));
    await section.getByTestId('protection-save').click();
    await saved;
    await page.getByText('Protection saved').waitFor();
    const { list } = await callApi<{ list: Acl[] }>(suite.master().baseUrl, 'GET', `/v1/acls?site_id=${site.id}`, {
      token,
    });
    expect(list[0]?.entries).toEqual([
      { action: 'deny', condition: { field: 'country', op: 'equals', values: ['CN', 'KP'], negate: false } },
    ]);
  });
});
