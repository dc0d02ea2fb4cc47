import type { Site } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { createSite, sitesNamed } from './support/edge.ts';
import { confirmPopup } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

describe('sites: list, add drawer, edit page and cache clean', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'sandra');

  it('adds a site through the drawer; it is listed and the API returns it', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await page.getByTestId('site-list-page').waitFor();
    await page.getByRole('button', { name: 'Add site' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Domains').fill('shop.example.com\nwww.shop.example.com');
    await drawer.getByLabel('Origin 1 address').fill('10.1.2.3');
    await drawer.getByLabel('Origin 1 port').fill('8080');
    await drawer.getByTestId('site-drawer-submit').click();
    await page.getByRole('link', { name: 'shop.example.com, www.shop.example.com' }).waitFor();
    const [site] = await sitesNamed(suite, token, 'shop.example.com');
    expect(site?.domains).toEqual(['shop.example.com', 'www.shop.example.com']);
    expect(site?.origins).toEqual([{ address: '10.1.2.3', port: 8080, weight: 1, backup: false }]);
  });

  it('disables the selected sites in one batch after asking', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'batch.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await page
      .getByRole('row', { name: /batch\.example\.com/ })
      .getByRole('checkbox')
      .check();
    await page.getByTestId('batch-bar').getByRole('button', { name: 'Disable' }).click();
    await confirmPopup(page);
    await page
      .getByRole('row', { name: /batch\.example\.com/ })
      .getByText('Disabled')
      .waitFor();
    const stored = await callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site.id}`, { token });
    expect(stored.enabled).toBe(false);
  });

  it('refuses a hostile domain with the rule and saves nothing', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/list'));
    await page.getByRole('button', { name: 'Add site' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Domains').fill('evil".example.com');
    await drawer.getByLabel('Origin 1 address').fill('10.1.2.3');
    const posted: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posted.push(request.url()));
    await drawer.getByTestId('site-drawer-submit').click();
    await drawer.getByText('evil".example.com is not allowed: a domain name such as www.example.com').waitFor();
    expect(posted).toEqual([]);
    expect(await sitesNamed(suite, token, 'evil')).toEqual([]);
  });

  it('edits origins on the edit page; a hostile Host header is refused first', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'edit.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await consoleReady(page);
    await page.getByTestId('apply-status').waitFor();
    await page.getByRole('tab', { name: 'Origins' }).click();
    await page.getByLabel('Origin 1 address').fill('origin.example.net');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByLabel('Origin 2 address').fill('10.9.9.9');
    await page.getByLabel('Origin 2 backup').click();
    await page.getByLabel('Origin Host header').fill('x;y');
    await page.getByTestId('site-save').click();
    await page.getByText('Empty (send the visitor Host) or a host name such as origin.example.com').waitFor();
    const base = suite.master().baseUrl;
    const unchanged = await callApi<Site>(base, 'GET', `/v1/sites/${site.id}`, { token });
    expect(unchanged.origins).toEqual(site.origins);
    await page.getByLabel('Origin Host header').fill('origin.example.net');
    // The refusal shows before the button leaves its loading state, and a loading button ignores a
    // click (a loaded CI run clicked it then and waited for a save that never started).
    const save = page.getByTestId('site-save');
    await expect.poll(() => save.getAttribute('class')).not.toContain('ant-btn-loading');
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
    await save.click();
    expect(JSON.parse((await saved).request().postData() ?? '{}')).toEqual({
      origins: [
        { address: 'origin.example.net', port: 8080, weight: 1, backup: false },
        { address: '10.9.9.9', port: 80, weight: 1, backup: true },
      ],
      origin_host: 'origin.example.net',
    });
    const edited = await callApi<Site>(base, 'GET', `/v1/sites/${site.id}`, { token });
    expect(edited.origins.map((origin) => origin.address)).toEqual(['origin.example.net', '10.9.9.9']);
    expect(edited.origin_host).toBe('origin.example.net');
  });

  it('submits a purge for a site URL and shows it in the job history', async () => {
    const { token } = await customer();
    await createSite(suite, token, 'cdn.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/cache-clean'));
    await page.getByTestId('cache-clean-page').waitFor();
    await page.getByRole('textbox', { name: 'Refresh URLs' }).fill('http://cdn.example.com/app.js');
    await page.getByRole('tabpanel', { name: 'Refresh URLs' }).getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('job-history').getByText('http://cdn.example.com/app.js').waitFor();
    // A URL of no site of the customer's is refused with the master's message under the list.
    await page.getByRole('textbox', { name: 'Refresh URLs' }).fill('http://elsewhere.example.org/x');
    await page.getByRole('tabpanel', { name: 'Refresh URLs' }).getByRole('button', { name: 'Submit' }).click();
    await page.getByText('elsewhere.example.org is not a domain of any of your sites').waitFor();
  });
});
