import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../apps/agent/test/support/http.ts';
import { type Origin, startOrigin } from '../apps/agent/test/support/origin.ts';
import { callApi } from './support/api.ts';
import { sitesNamed } from './support/edge.ts';
import { type EdgeNode, startEdgeNode } from './support/edge-node.ts';
import { openInApp } from './support/navigate.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { selfSigned } from './support/self-signed.ts';
import { useSuite } from './support/suite.ts';

/** Config changes reach the edge in about a second; this leaves room for a loaded machine. */
const SERVED_WITHIN_MS = 15_000;

describe('a site added and edited in the dashboard, served by a real edge', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'edith');
  const domain = `shop-${randomBytes(4).toString('hex')}.example.com`;
  let edge: EdgeNode;
  let originA: Origin;
  let originB: Origin;
  let siteId = 0;

  beforeAll(async () => {
    [originA, originB] = [await startOrigin('origin-a'), await startOrigin('origin-b')];
    edge = await startEdgeNode(suite.master());
  });
  afterAll(async () => {
    await edge?.stop();
    await originA?.close();
    await originB?.close();
  });

  /** The origin that answered the edge for the site's Host (over HTTPS with SNI when `tls`). */
  const servedBy = async (tls = false) => {
    const answer = await edge.request(domain, { tls });
    if (answer.status !== 200) throw new Error(`status ${answer.status}: ${answer.body.slice(0, 200)}`);
    return (JSON.parse(answer.body) as { origin: string }).origin;
  };

  /** The site's edit page on one of its sections. */
  const openEditSection = async (section: string): Promise<Page> => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url(`/site/list/${siteId}`));
    await page.getByTestId('site-edit-page').waitFor();
    await page.getByRole('tab', { name: section }).click();
    return page;
  };

  const save = async (page: Page) => {
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes(`/v1/sites/${siteId}`),
    );
    await page.getByTestId('site-save').click();
    expect(((await (await saved).json()) as { code: unknown }).code).toBe(0);
  };

  it('adds a site in the drawer; the edge serves origin A for its Host', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await page.getByTestId('site-list-page').waitFor();
    await page.getByRole('button', { name: 'Add site' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Domains').fill(domain);
    await drawer.getByLabel('Origin 1 address').fill('127.0.0.1');
    await drawer.getByLabel('Origin 1 port').fill(String(originA.port));
    await drawer.getByTestId('site-drawer-submit').click();
    await page.getByRole('link', { name: domain }).waitFor();
    const [site] = await sitesNamed(suite, token, domain);
    siteId = site?.id ?? 0;
    await eventually(async () => expect(await servedBy()).toBe('origin-a'), SERVED_WITHIN_MS, 100);
    expect(originA.requests.at(-1)?.headers.host).toBe(domain);
  });

  it('uploads a certificate and turns HTTPS on with it; the edge answers over HTTPS with SNI', async () => {
    const { token } = await customer();
    const pem = await selfSigned(domain);
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/cert'));
    await page.getByTestId('cert-page').waitFor();
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Certificate (PEM, leaf first, then the chain)').fill(pem.cert);
    await dialog.getByLabel('Private key (PEM)').fill(pem.key);
    await dialog.getByTestId('cert-upload-submit').click();
    await page.getByRole('cell', { name: domain }).first().waitFor();

    const edit = await openEditSection('HTTPS');
    await edit.getByRole('combobox', { name: 'Certificate' }).click();
    // The visible option carries its label as a title; the one with role option is for screen readers.
    await edit.getByTitle(`${domain} (${domain})`).click();
    await edit.getByRole('switch', { name: 'Listen on HTTPS' }).click();
    await save(edit);
    const stored = await callApi<{ https_listen: boolean; cert_id: number | null }>(
      suite.master().baseUrl,
      'GET',
      `/v1/sites/${siteId}`,
      { token },
    );
    expect(stored).toMatchObject({ https_listen: true, cert_id: expect.any(Number) });

    await eventually(async () => expect(await servedBy(true)).toBe('origin-a'), SERVED_WITHIN_MS, 100);
    const answer = await edge.request(domain, { tls: true });
    expect(answer.cert?.subject?.CN).toBe(domain);
  });

  it('changes the origin to B on the edit page; the edge serves B over HTTP and HTTPS', async () => {
    const page = await openEditSection('Origins');
    await page.getByLabel('Origin 1 port').fill(String(originB.port));
    await save(page);
    // During a reload the retiring workers may still answer a request or two with the old origin:
    // wait until every answer, plain and TLS, comes from the new one.
    await eventually(
      async () => {
        for (let i = 0; i < 5; i++) {
          expect(await servedBy()).toBe('origin-b');
          expect(await servedBy(true)).toBe('origin-b');
        }
      },
      SERVED_WITHIN_MS,
      100,
    );
    expect(originB.requests.at(-1)?.headers.host).toBe(domain);
  });

  it('caches by a rule added on the edit page, and a purge on the cache page makes the next fetch a MISS', async () => {
    const page = await openEditSection('Cache rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('textbox', { name: 'Value' }).fill('/assets/');
    await save(page);
    const cacheStatus = async () => (await edge.request(domain, { path: '/assets/app.css' })).headers['x-cache-status'];
    // Once the rule is live every answer carries a cache status (retiring workers of the previous
    // config answer without one for a moment), and the URL has been fetched, so it is a HIT.
    await eventually(
      async () => {
        for (let i = 0; i < 5; i++) expect(['MISS', 'HIT']).toContain(await cacheStatus());
      },
      SERVED_WITHIN_MS,
      100,
    );
    expect(await cacheStatus()).toBe('HIT');

    await openInApp(page, '/site/cache-clean');
    await page.getByTestId('cache-clean-page').waitFor();
    const url = `http://${domain}/assets/app.css`;
    await page.getByRole('textbox', { name: 'Refresh URLs' }).fill(url);
    await page.getByRole('tabpanel', { name: 'Refresh URLs' }).getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('job-history').getByText(url).waitFor();
    // A HIT leaves the cache as it is, so polling ends at the first fetch after the purge.
    await eventually(async () => expect(await cacheStatus()).toBe('MISS'), SERVED_WITHIN_MS, 200);
    expect(await cacheStatus()).toBe('HIT');
  });
});
