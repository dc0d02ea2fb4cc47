import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite } from './support/edge.ts';
import { openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const API_KEY = 'pdns-secret';

/** A PowerDNS API stand-in with one zone, example.org, that records the CNAME patches it receives. */
const fakePowerDns = () => {
  const patches: string[] = [];
  const server: Server = createServer((request, response) => {
    if (request.headers['x-api-key'] !== API_KEY) {
      response.writeHead(401).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/api/v1/servers/localhost/zones') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ name: 'example.org.' }]));
      } else if (request.method === 'PATCH' && request.url === '/api/v1/servers/localhost/zones/example.org.') {
        patches.push(body);
        response.writeHead(204).end();
      } else {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      }
    });
  });
  return { server, patches };
};

/** The operator's switch that lets a DNS API URL lead to a private address (the stand-in is on 127.0.0.1). */
const allowPrivateDnsApis = (dataDir: string) => {
  const database = new DatabaseSync(join(dataDir, 'rampart.db'));
  try {
    database
      .prepare(
        "INSERT INTO configs (scope_name, scope_id, type, name, value, updated_at) VALUES ('global', 0, 'system', 'dnsapi_allow_private', 'true', ?)",
      )
      .run(Date.now());
  } finally {
    database.close();
  }
};

describe('DNS APIs: add one from the site list and create the CNAME records of a site', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'dora');
  const powerDns = fakePowerDns();
  beforeAll(() => new Promise<void>((resolve) => powerDns.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => powerDns.server.close(() => resolve())));

  it('adds a PowerDNS account, then points the site domains at the CNAME target through it', async () => {
    const { baseUrl, adminPassword, dataDir } = suite.master();
    allowPrivateDnsApis(dataDir);
    const admin = await adminToken(baseUrl, adminPassword);
    await callApi(baseUrl, 'POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn.example.net', is_default: true },
    });
    const { token } = await customer();
    const site = await createSite(suite, token, 'www.example.org');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);

    await page.getByRole('button', { name: 'DNS APIs', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add DNS API' }).click();
    await dialog.getByLabel('Name').fill('pdns-e2e');
    await dialog
      .getByLabel('PowerDNS API URL')
      .fill(`http://127.0.0.1:${(powerDns.server.address() as AddressInfo).port}`);
    await dialog.getByLabel('API key').fill(API_KEY);
    await dialog.getByTestId('dnsapi-save').click();
    await dialog.getByRole('cell', { name: 'pdns-e2e' }).waitFor();
    const { list } = await callApi<{ list: { name: string }[] }>(baseUrl, 'GET', '/v1/dnsapis', { token });
    expect(list.map((dnsApi) => dnsApi.name)).toEqual(['pdns-e2e']);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const row = page.getByRole('row').filter({ hasText: 'www.example.org' });
    const records = await openDialog(page, row.getByRole('button', { name: 'Create CNAME records' }));
    await records.getByLabel('DNS API').click();
    await page.getByTitle('pdns-e2e', { exact: true }).click();
    await records.getByRole('button', { name: 'Create records' }).click();
    await records.getByTestId('cname-records').getByText('created in zone example.org').waitFor();
    expect(powerDns.patches).toHaveLength(1);
    expect(powerDns.patches[0]).toContain('www.example.org.');
    expect(powerDns.patches[0]).toContain(site.id.toString());
  });
});
