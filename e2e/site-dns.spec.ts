import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer, type Zone } from '../apps/master/src/test/dns-server.ts';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite, sitesNamed } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const DOMAIN = 'www.guide-e2e.test';

/** System settings straight in the master's SQLite: the resolver has no settings page. */
const saveSettings = (dataDir: string, settings: Record<string, unknown>) => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    const insert = database.prepare(
      "INSERT INTO configs (scope_name, scope_id, type, name, value, updated_at) VALUES ('global', 0, 'system', ?, ?, ?) ON CONFLICT (scope_name, scope_id, type, name) DO UPDATE SET value = excluded.value",
    );
    for (const [name, value] of Object.entries(settings)) insert.run(name, JSON.stringify(value), Date.now());
  } finally {
    database.close();
  }
};

describe('sites: DNS guide and defaults for new sites', () => {
  // The DNS the master's check asks; the test points the domain by changing the zone.
  const zone: Zone = {};
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer(zone);
  });
  afterAll(async () => {
    await dns?.close();
  });
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'dina');

  it('shows the missing CNAME plainly, then the target, and checks where each domain points', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    // Added through the drawer: the message says where to find the DNS guide.
    await page.getByRole('button', { name: 'Add site' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Domains').fill(DOMAIN);
    await drawer.getByLabel('Origin 1 address').fill('10.1.2.3');
    await drawer.getByTestId('site-drawer-submit').click();
    await page.getByText('“DNS guide” in its row shows how', { exact: false }).waitFor();
    const [site] = await sitesNamed(suite, token, DOMAIN);
    if (!site) throw new Error('the site was not added');
    const row = page.getByRole('row').filter({ has: page.getByTestId(`site-link:${site.id}`) });
    await row.getByTestId('site-cname-missing').getByText('Not set up by the operator yet').waitFor();
    await row.getByRole('button', { name: 'DNS guide' }).click();
    const guide = page.getByRole('dialog', { name: 'Point your domain here' });
    await guide.getByText('The operator has not set up a CNAME domain yet', { exact: false }).waitFor();
    expect(await guide.getByTestId('dns-guide-check').count()).toBe(0);
    await guide.getByRole('button', { name: 'Close' }).click();

    const { baseUrl, adminPassword, dataDir } = suite.master();
    const admin = await adminToken(baseUrl, adminPassword);
    await callApi(baseUrl, 'POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn-target.example.net', is_default: true },
    });
    const { cname } = await callApi<Site>(baseUrl, 'GET', `/v1/sites/${site.id}`, { token });
    expect(cname).toContain('cdn-target.example.net');
    zone.cname = { [DOMAIN]: cname };
    saveSettings(dataDir, { dns_resolver: dns.address });

    await page.reload();
    await consoleReady(page);
    await row.getByTestId('site-cname').getByText(cname, { exact: true }).waitFor();
    await row.getByRole('button', { name: 'DNS guide' }).click();
    await guide.getByTestId('dns-guide-target').getByText(cname, { exact: true }).waitFor();
    const status = guide.getByTestId(`dns-guide:${DOMAIN}`);
    expect(await status.textContent()).toContain('Not checked');
    await guide.getByTestId('dns-guide-check').click();
    await status.getByText('Points here').waitFor();

    // A domain pointing elsewhere says where.
    zone.cname = { [DOMAIN]: 'old-cdn.example.org' };
    await guide.getByTestId('dns-guide-check').click();
    await status.getByText('Points to old-cdn.example.org').waitFor();
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
