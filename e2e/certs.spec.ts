import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Cert } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const run = promisify(execFile);

/** A self-signed P-256 certificate for `domain`, made by openssl (no shell). */
const selfSigned = async (domain: string) => {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-cert-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '20',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      `/CN=${domain}`,
      '-addext',
      `subjectAltName=DNS:${domain}`,
    ]);
    return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

describe('certificates: upload and list', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'carla');

  it('shows the master rule for a broken certificate, then uploads a real one and lists it', async () => {
    const { token } = await customer();
    const pem = await selfSigned('secure.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/cert'));
    await page.getByTestId('cert-page').waitFor();
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Certificate (PEM, leaf first, then the chain)').fill('not a certificate');
    await dialog.getByLabel('Private key (PEM)').fill(pem.key);
    await dialog.getByTestId('cert-upload-submit').click();
    // The master names the field; its message shows under the certificate box.
    await dialog.getByText('must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)').waitFor();
    expect((await callApi<{ total: number }>(suite.master().baseUrl, 'GET', '/v1/certs', { token })).total).toBe(0);
    await dialog.getByLabel('Certificate (PEM, leaf first, then the chain)').fill(pem.cert);
    await dialog.getByTestId('cert-upload-submit').click();
    await page.getByRole('cell', { name: 'secure.example.com' }).first().waitFor();
    // Valid for 20 days: highlighted as expiring soon.
    await page.getByTestId('expiry:soon').waitFor();
    const { list } = await callApi<{ list: Cert[] }>(suite.master().baseUrl, 'GET', '/v1/certs', { token });
    expect(list.map((cert) => cert.names)).toEqual([['secure.example.com']]);
  });

  it('counts the sites using a certificate, keeps its delete disabled and downloads its chain without the key', async () => {
    const { token } = await customer();
    const base = suite.master().baseUrl;
    const pem = await selfSigned('used.example.com');
    const cert = await callApi<Cert>(base, 'POST', '/v1/certs', { token, body: { name: 'used', ...pem } });
    const site = await createSite(suite, token, 'used.example.com');
    await callApi(base, 'PUT', `/v1/sites/${site.id}`, { token, body: { cert_id: cert.id } });
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/cert'));
    await page.getByTestId('cert-page').waitFor();
    await expect.poll(() => page.getByTestId(`cert-sites:${cert.id}`).textContent()).toBe('1');
    const row = page.getByRole('row').filter({ has: page.getByTestId(`cert-sites:${cert.id}`) });
    await expect.poll(() => row.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download certificate' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('used.pem');
    const text = await readFile((await file.path()) ?? '', 'utf8');
    expect(text).toContain('-----BEGIN CERTIFICATE-----');
    expect(text).not.toContain('PRIVATE KEY');
  });
});
