import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi, latestCode, login } from './support/api.ts';
import { askToLogOut } from './support/console.ts';
import { customerOf } from './support/edge.ts';
import { openDialog } from './support/overlays.ts';
import { useSuite } from './support/suite.ts';
import { appCode } from './support/totp.ts';

const signIn = async (page: Page, url: string, account: string, password: string) => {
  await page.goto(url);
  await page.getByLabel('Account').fill(account);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
};

describe('/account/user', () => {
  const suite = useSuite();
  const customer = customerOf(suite, 'tess');
  const other = customerOf(suite, 'ursa');
  const third = customerOf(suite, 'vega');

  it('turns on two-factor sign-in with the QR code’s secret, then signs in with the app’s code', async () => {
    const { token, account, password } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/user?tab=two-factor'));
    await page.getByTestId('two-factor-panel').waitFor();
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByTestId('two-factor-qr').locator('canvas').waitFor();
    const secret = ((await dialog.getByTestId('two-factor-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await dialog.getByLabel('Code from the app').fill(appCode(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const codes = dialog.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = ((await codes.first().textContent()) ?? '').trim();
    expect(recovery).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByTestId('two-factor-state').textContent()).toBe('On');

    await (await askToLogOut(page)).getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(suite.url('/login'));

    await signIn(page, suite.url('/login'), account, password);
    const codeField = page.getByLabel('Two-factor code');
    await codeField.waitFor();
    // The confirming code spent this 30-second step; the app's next code is accepted a step early.
    await codeField.fill(appCode(secret, 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(suite.url('/home'));

    const { baseUrl, adminPassword } = suite.master();
    const log = await callApi<{ list: { method: string; result: string }[] }>(
      baseUrl,
      'GET',
      `/v1/log/login?account=${account}&page=1&limit=5`,
      { token: await adminToken(baseUrl, adminPassword) },
    );
    expect(log.list[0]).toMatchObject({ method: 'totp', result: 'ok' });
    // A recovery code signs in once, through the same field.
    const again = await suite.openPage();
    await signIn(again, suite.url('/login'), account, password);
    await again.getByLabel('Two-factor code').fill(recovery);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.waitForURL(suite.url('/home'));
  });

  it('changes the email with the code from the outbox, and names a wrong code', async () => {
    const { token } = await other();
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/user'));
    // Tabs are destroyed when hidden: the page holds the profile form alone.
    const form = page.getByTestId('account-user-page');
    await form.getByLabel('Name').fill('Ursa Major');
    await form.getByLabel('Email', { exact: true }).fill('ursa.new@example.com');
    await form.getByTestId('profile-email-send').click();
    await page.getByText('The code has been sent').waitFor();
    await form.getByLabel('Email code').fill('000000');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The verification code is wrong or has expired - verify_code_invalid').waitFor();
    const code = await latestCode(baseUrl, await adminToken(baseUrl, adminPassword), 'ursa.new@example.com');
    await form.getByLabel('Email code').fill(code === '000000' ? '111111' : code);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your profile was saved').waitFor();
    const me = await callApi<{ email: string; name: string }>(baseUrl, 'GET', '/v1/user', { token });
    expect(me).toMatchObject({ email: 'ursa.new@example.com', name: 'Ursa Major' });
  });

  it('shows the balance on the profile with a recharge link that leads to /account/balance and back', async () => {
    const { token } = await third();
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url('/account/user'));
    const profile = page.getByTestId('account-user-page');
    await profile.getByText('账户余额', { exact: true }).waitFor();
    await profile
      .getByTestId('profile-balance')
      .filter({ hasText: /^0\.00$/ })
      .waitFor();
    await profile.getByTestId('recharge-link').filter({ hasText: '充值' }).click();
    await page.waitForURL(/\/account\/balance\?back=%2Faccount%2Fuser$/);
    await page.getByTestId('recharge-back').filter({ hasText: '返回之前的页面' }).click();
    await page.getByTestId('account-user-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/account/user');
  });

  it('submits a certification in zh-CN and shows it awaiting review', async () => {
    const { token } = await other();
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url('/account/user?tab=certify'));
    const panel = page.getByTestId('certify-panel');
    await panel.getByLabel('真实姓名').fill('张三');
    await panel.getByLabel('身份证号码').fill('110105194912310021');
    await panel.getByRole('button', { name: '提交审核' }).click();
    await panel.getByText('不是有效的 18 位身份证号码').waitFor();
    await panel.getByLabel('身份证号码').fill('11010519491231002X');
    await panel.getByRole('button', { name: '提交审核' }).click();
    await expect.poll(() => panel.getByTestId('certify-state').textContent()).toBe('待审核');
    await panel.getByText('1101**********002X').waitFor();
  });

  it('changes the password with the current one and signs the other sessions out', async () => {
    const { token, account, password } = await third();
    const { baseUrl } = suite.master();
    const elsewhere = await login(baseUrl, account, password);
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/user?tab=password'));
    const form = page.getByTestId('account-user-page');
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('vega-Next-Pass-2');
    await form.getByLabel('Confirm password').fill('vega-Next-Pass-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('The current password is wrong', { exact: true }).waitFor();
    await form.getByLabel('Current password').fill(password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed; your other sessions were signed out').waitFor();
    await expect(callApi(baseUrl, 'GET', '/v1/user', { token: elsewhere })).rejects.toThrow(/login_required/);
    expect(await callApi<{ account: string }>(baseUrl, 'GET', '/v1/user', { token })).toMatchObject({ account });
    expect((await login(baseUrl, account, 'vega-Next-Pass-2')).length).toBeGreaterThan(0);
  });
});
