import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Cert } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pebble, startPebble } from '../apps/master/src/test/pebble.ts';
import { type PowerDns, startPowerDns } from '../apps/master/src/test/powerdns.ts';
import { callApi } from './support/api.ts';
import { customerOf } from './support/edge.ts';
import { useSuite } from './support/suite.ts';

/** System settings straight in the master's SQLite (the settings page comes with a later issue). */
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

describe('certificates: request one from an ACME server (DNS-01 through PowerDNS)', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  // Before the suite starts its master: the master trusts pebble's HTTPS certificate through this variable.
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('e2e-acme.test');
    pebble = await startPebble({ dnsServer: pdns.dnsAddress });
    process.env.RAMPART_ACME_CA_FILE = pebble.caFile;
  });
  afterAll(async () => {
    delete process.env.RAMPART_ACME_CA_FILE;
    await pebble?.close();
    await pdns?.close();
  });
  const suite = useSuite();
  const customer = customerOf(suite, 'ada');

  it('validates the form like the master, then issues the certificate and shows its progress and outcome', async () => {
    const { baseUrl, dataDir } = suite.master();
    saveSettings(dataDir, {
      acme_directory_url: pebble.directoryUrl,
      dns_resolver: pdns.dnsAddress,
      dnsapi_allow_private: true,
    });
    const { token } = await customer();
    await callApi(baseUrl, 'POST', '/v1/dnsapis', {
      token,
      body: { name: 'pdns-e2e', provider: 'powerdns', credentials: { url: pdns.apiUrl, api_key: pdns.apiKey } },
    });
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/cert'));
    await page.getByTestId('cert-page').waitFor();
    await page.getByRole('button', { name: 'Request certificate' }).click();
    const dialog = page.getByRole('dialog');
    const domains = dialog.getByLabel('Domains');

    // HTTP-01 cannot prove a wildcard: said before anything is sent.
    await domains.fill('*.e2e-acme.test');
    await dialog.getByTestId('cert-request-submit').click();
    await dialog.getByText('*.e2e-acme.test is a wildcard: choose DNS-01 for it').waitFor();

    await dialog.getByText('DNS-01 (through a DNS API)').click();
    await dialog.getByLabel('DNS API', { exact: true }).click();
    await page.getByTitle('pdns-e2e', { exact: true }).click();
    // A domain outside the DNS API's zones: the master's rule shows under the box.
    await domains.fill('www.elsewhere.test');
    await dialog.getByTestId('cert-request-submit').click();
    await dialog.getByText('no zone of the DNS API "pdns-e2e" holds www.elsewhere.test').waitFor();

    await domains.fill('www.e2e-acme.test\n*.e2e-acme.test');
    await dialog.getByTestId('cert-request-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const { list } = await callApi<{ list: Cert[] }>(baseUrl, 'GET', '/v1/certs', { token });
    const [cert] = list;
    expect(cert).toMatchObject({
      source: 'acme',
      challenge: 'dns-01',
      domains: ['www.e2e-acme.test', '*.e2e-acme.test'],
    });
    // The list polls while the issuance runs, without a reload.
    const status = page.getByTestId(`cert-status:${cert?.id}`);
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('issued');
    const row = page.getByRole('row').filter({ has: status });
    await row.getByText('ACME', { exact: true }).waitFor();
    await row.getByText('www.e2e-acme.test, *.e2e-acme.test').waitFor();
    await row.getByTestId('expiry:ok').waitFor();
  });
});
