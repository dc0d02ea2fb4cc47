import type { Site } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite, customerOf } from './support/edge.ts';
import { useSuite } from './support/suite.ts';

describe('sites: DNS check and defaults for new sites', () => {
  const suite = useSuite();
  const customer = customerOf(suite, 'dina');

  it('explains that no CNAME domain exists, then checks each domain once an administrator adds one', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'nowhere-rampart-e2e.invalid');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    const row = page.getByRole('row').filter({ hasText: 'nowhere-rampart-e2e.invalid' });
    await row.getByRole('button', { name: 'Check DNS' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('no CNAME domain is set up yet; an administrator adds one first').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const { baseUrl, adminPassword } = suite.master();
    const admin = await adminToken(baseUrl, adminPassword);
    await callApi(baseUrl, 'POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn-target.example.net', is_default: true },
    });
    const { cname } = await callApi<Site>(baseUrl, 'GET', `/v1/sites/${site.id}`, { token });
    expect(cname).toContain('cdn-target.example.net');
    await page.reload();
    await consoleReady(page);
    await row.getByRole('button', { name: 'Check DNS' }).click();
    await page.getByRole('dialog').getByTestId('cname-check:nowhere-rampart-e2e.invalid').waitFor({ timeout: 15_000 });
    await page.getByRole('dialog').getByText(cname).waitFor();
  });

  it('saves defaults for new sites in the drawer; a site created through the API starts with them', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    await page.getByRole('button', { name: 'Defaults for new sites' }).click();
    const drawer = page.getByRole('dialog');
    // antd renders each option with its label as the title; the listbox roles are only for screen readers.
    await drawer.getByLabel('Load balancing').click();
    await page.getByTitle('Client IP hash', { exact: true }).click();
    await drawer.getByLabel('Gzip').click();
    await page.getByTitle('Off', { exact: true }).click();
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
    await drawer.getByTestId('site-defaults-save').click();
    expect(JSON.parse((await saved).request().postData() ?? '{}')).toEqual({
      site_defaults: { balance: 'ip_hash', gzip: false },
    });
    const site = await createSite(suite, token, 'defaults.example.com');
    expect(site.balance).toBe('ip_hash');
    expect(site.gzip).toBe(false);
  });
});
