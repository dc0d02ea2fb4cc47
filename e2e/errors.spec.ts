import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { consoleReady } from './support/console.ts';
import { useSuite } from './support/suite.ts';

describe('console: errors, the front-end log and navigation helpers', () => {
  const suite = useSuite();
  let token = '';
  const signedIn = async (expectedErrors?: RegExp) => {
    const { baseUrl, adminPassword } = suite.master();
    token ||= await adminToken(baseUrl, adminPassword);
    return suite.openPage({ token, expectedErrors });
  };

  it("shows a failed call as 'msg - code' and lists it in the front-end log, which can be cleared", async () => {
    const page = await signedIn();
    await page.route('**/v1/common/sysinfo', (route) =>
      route.fulfill({ status: 500, json: { code: 'demo_failure', msg: 'Demo failure', data: null } }),
    );
    await page.route('**/v1/site-sys-config', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    await page.goto(suite.url('/admin-home'));
    await page.getByText('Demo failure - demo_failure').waitFor();
    await page.getByText('bad gateway - 502').waitFor();
    await page.getByRole('link', { name: 'Front-end log (2)' }).click();
    await page.waitForURL(suite.url('/log'));
    const log = page.getByTestId('log-page');
    await log.getByText('GET /v1/common/sysinfo').waitFor();
    await log.getByText('GET /v1/site-sys-config').waitFor();
    await log.getByRole('button', { name: 'Clear' }).click();
    await log.getByText('Nothing went wrong in this tab yet').waitFor();
    await page.getByRole('link', { name: 'Front-end log (0)' }).waitFor();
  });

  it('records uncaught errors and rejected promises with their stack', async () => {
    const page = await signedIn(/boom from e2e|rejected in e2e/);
    await page.goto(suite.url('/log'));
    await page.getByTestId('log-page').waitFor();
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom from e2e');
      });
      void Promise.reject(new Error('rejected in e2e'));
    });
    const log = page.getByTestId('log-page');
    await log.getByText('boom from e2e').waitFor();
    await log.getByText('rejected in e2e').waitFor();
    await log.getByText('Uncaught error').waitFor();
    await log.getByText('Rejected promise').waitFor();
    await log.getByRole('button', { name: 'Expand row' }).first().click();
    await expect.poll(() => log.getByTestId('log-stack').first().textContent()).toContain('Error:');
  });

  it('counts past 99 as 99+ in the log badge', async () => {
    const page = await signedIn(/overflow \d+/);
    await page.goto(suite.url('/admin-home'));
    await consoleReady(page);
    await page.evaluate(() => {
      for (let index = 0; index < 120; index += 1) void Promise.reject(new Error(`overflow ${index}`));
    });
    await page.getByRole('link', { name: 'Front-end log (120)' }).getByText('99+').waitFor();
  });

  it('shows an error with a retry when a page chunk does not load', async () => {
    const page = await signedIn();
    await page.route(/\/assets\/LogPage-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(suite.url('/admin-home'));
    await consoleReady(page);
    await page.getByTestId('sider').getByRole('menuitem', { name: 'Front-end log' }).click();
    const failure = page.getByTestId('route-error');
    await failure.getByText('This page could not be loaded').waitFor();
    await consoleReady(page);
    await page.unroute(/\/assets\/LogPage-[\w-]+\.js$/);
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('log-page').waitFor();
  });

  it('shows the 404 page for unknown routes', async () => {
    const page = await signedIn();
    await page.goto(suite.url('/no/such/page'));
    await page.getByTestId('error-404').waitFor();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL(suite.url('/admin-home'));
  });

  it('finds pages with the menu search and follows the redirect and refresh helpers', async () => {
    const page = await signedIn();
    await page.goto(suite.url('/redirect/log?level=error'));
    await page.waitForURL(suite.url('/log?level=error'));
    await page.getByTestId('log-page').waitFor();
    await page.goto(suite.url('/refresh'));
    await page.waitForURL(suite.url('/admin-home'));
    await page.getByRole('button', { name: 'Search the menu' }).click();
    await page.getByRole('searchbox', { name: 'Search the menu' }).fill('firewall');
    await page.getByTestId('menu-search').getByRole('button', { name: 'Configuration / Firewall settings' }).click();
    await page.waitForURL(suite.url('/config/waf'));
  });
});
