import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { createCustomer } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

describe('route guard', () => {
  const suite = useSuite();

  it('sends an unauthenticated visit to login with the full path to return to', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/site/list'));
    await page.waitForURL(suite.url('/login?redirect=%2Fsite%2Flist'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.title()).toBe('Sign in - Rampart');
  });

  it('sends a user whose token the server no longer accepts to login', async () => {
    const page = await suite.openPage({ token: 'revoked-or-made-up' });
    await page.goto(suite.url('/home'));
    await page.waitForURL(suite.url('/login?redirect=%2Fhome'));
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('token');
  });

  it('shows the 404 page for an unknown path when signed in', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword) });
    await page.goto(suite.url('/anything/unknown'));
    await page.getByTestId('error-404').waitFor();
    await page.getByText('Page missing').waitFor();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL(suite.url('/admin-home'));
  });

  it('tells an admin that a customer page is for customers, titled as that page, with a way to sign in as one', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword), settings: { tabs: true } });
    await page.goto(suite.url('/user-package/my'));
    await page.getByTestId('error-403').waitFor();
    await page.getByTestId('forbidden-reason').getByText('This page is for customer accounts').waitFor();
    await expect.poll(() => page.title()).toBe('My packages - Rampart');
    // The tab bar names the page the 403 explains, not the page before it.
    const selected = page.getByTestId('tab-bar').getByRole('tab', { selected: true });
    await expect.poll(() => selected.textContent()).toBe('My packages');
    await page.getByTestId('forbidden-sign-in-as').click();
    await page.waitForURL(suite.url('/sys/user'));
    await page.getByTestId('sys-user-page').waitFor();
  });

  it('tells a customer in Chinese that an admin page is for administrators, with no sign-in-as offer', async () => {
    const { token } = await createCustomer(suite, 'gina');
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url('/sys/setting'));
    await page.getByTestId('error-403').waitFor();
    await page.getByTestId('forbidden-reason').getByText('此页面仅供管理员使用').waitFor();
    expect(await page.getByTestId('forbidden-sign-in-as').count()).toBe(0);
  });
});
