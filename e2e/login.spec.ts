import { describe, expect, it } from 'vitest';
import { askToLogOut } from './support/console.ts';
import { useSuite } from './support/suite.ts';

describe('login page', () => {
  const suite = useSuite();

  it('signs an admin in through the form and lands on admin-home', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/login'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(suite.master().adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(suite.url('/admin-home'));
    await page.getByTestId('admin-home-page').waitFor();
    await expect.poll(() => page.getByTestId('current-account').textContent()).toBe('Administrator');
    await expect.poll(() => page.title()).toBe('Service overview - Rampart');
  });

  it('logs out from the user menu: the token is revoked and the console needs login again', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/login'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(suite.master().adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(suite.url('/admin-home'));
    const revoked = page.waitForResponse(
      (response) => response.url().endsWith('/v1/common/auth') && response.request().method() === 'DELETE',
    );
    await (await askToLogOut(page)).getByRole('button', { name: 'Log out' }).click();
    expect((await revoked).status()).toBe(200);
    await page.waitForURL(suite.url('/login'));
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('token');
    await page.goto(suite.url('/admin-home'));
    await page.waitForURL(suite.url('/login?redirect=%2Fadmin-home'));
  });

  it("shows the server's message for a wrong password", async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/login'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/ - bad_credentials$/).waitFor();
    expect(page.url()).toBe(suite.url('/login'));
  });

  it('switches the language between zh-CN and en-US', async () => {
    const page = await suite.openPage({ locale: 'zh-CN' });
    await page.goto(suite.url('/login'));
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Account').waitFor();
    await expect.poll(() => page.title()).toBe('Sign in - Rampart');
    await page.getByRole('button', { name: '简体中文' }).click();
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  });
});
