import { describe, it } from 'vitest';
import { adminToken, latestCode } from './support/api.ts';
import { useSuite } from './support/suite.ts';

describe('registration', () => {
  const suite = useSuite();

  it('registers a new user with an email code and lands on home', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const email = 'new.user@example.com';
    const page = await suite.openPage();
    await page.goto(suite.url('/register'));
    await page.getByLabel('Username').fill('new_user');
    await page.getByLabel('Email', { exact: true }).fill(email);
    const sent = page.waitForResponse((response) => response.url().endsWith('/v1/email-captcha'));
    await page.getByTestId('send-email-code').click();
    await sent;
    const code = await latestCode(baseUrl, await adminToken(baseUrl, adminPassword), email);
    await page.getByLabel('Email code').fill(code);
    await page.getByLabel('Password', { exact: true }).fill('New-user-pass-1');
    await page.getByLabel('Confirm password').fill('New-user-pass-1');
    await page.getByText('Strong').waitFor();
    await page.getByLabel('I have read and accept the user agreement').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(suite.url('/home'));
    await page.getByText('Registration success').waitFor();
    await page.getByTestId('home-page').waitFor();
  });
});
