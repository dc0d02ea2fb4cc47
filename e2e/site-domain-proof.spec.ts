import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from '../apps/master/src/test/dns-server.ts';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { dashboardLocaleKeys, textFindings } from './support/page-check.ts';
import { useSuite } from './support/suite.ts';

/** The resolver has no settings page: it is saved straight in the master's SQLite. */
const saveResolver = (dataDir: string, address: string) => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    database
      .prepare(
        "INSERT INTO configs (scope_name, scope_id, type, name, value, updated_at) VALUES ('global', 0, 'system', 'dns_resolver', ?, ?) ON CONFLICT (scope_name, scope_id, type, name) DO UPDATE SET value = excluded.value",
      )
      .run(JSON.stringify(address), Date.now());
  } finally {
    database.close();
  }
};

describe('sites: a domain waiting for proof of ownership', () => {
  // A DNS server that knows no name: every check finds no TXT record.
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({});
  });
  afterAll(async () => {
    await dns?.close();
  });
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'prudence');
  const domain = `proof-${randomBytes(4).toString('hex')}.example.com`;
  let site: Site | undefined;

  /** The operator requires proof (as on a new installation); the customer's site then waits for it. */
  const waitingSite = async () => {
    const { token } = await customer();
    if (!site) {
      const { baseUrl, adminPassword, dataDir } = suite.master();
      const admin = await adminToken(baseUrl, adminPassword);
      await callApi(baseUrl, 'PUT', '/v1/configs/global-0-system-domains', {
        token: admin,
        body: { domain_proof: true },
      });
      saveResolver(dataDir, dns.address);
      site = await createSite(suite, token, domain);
    }
    return { token, site };
  };

  it('tags the site in the list and shows the TXT record to create, and why a check did not prove it', async () => {
    const { token, site: waiting } = await waitingSite();
    const tokenValue = waiting.domain_proofs?.[0]?.token ?? '';
    expect(tokenValue).not.toBe('');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    await page.getByTestId(`site-proof-waiting:${waiting.id}`).getByText('Waiting for proof').waitFor();

    await page.getByTestId(`site-link:${waiting.id}`).click();
    const panel = page.getByTestId('domain-proof-panel');
    await panel.getByText('Prove that you own these domains').waitFor();
    expect(await panel.getByTestId('domain-proof-name').textContent()).toContain(`_rampart-challenge.${domain}`);
    expect(await panel.getByTestId('domain-proof-token').textContent()).toContain(tokenValue);
    // The save queued a check already; this one asks again.
    await panel.getByRole('button', { name: 'Check now' }).click();
    await panel.getByTestId('domain-proof-reason').getByText('No TXT record yet').waitFor();
    await panel.getByTestId('domain-proof-waiting').getByText('Waiting for proof').waitFor();
  });

  it('says the same in Chinese, with no English but the record itself', async () => {
    const { token, site: waiting } = await waitingSite();
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url(`/site/list/${waiting.id}`));
    await consoleReady(page);
    const panel = page.getByTestId('domain-proof-panel');
    await panel.getByText('请证明这些域名归您所有').waitFor();
    await panel.getByTestId('domain-proof-waiting').getByText('待证明').waitFor();
    const findings = await textFindings(page, {
      path: `/site/list/${waiting.id}`,
      role: 'customer',
      language: 'zh-CN',
      locale: await dashboardLocaleKeys(),
      // The record's name is shown as it must be typed.
      data: [`_rampart-challenge.${domain}`, domain, 'prudence'],
    });
    expect(findings).toEqual([]);
  });
});
