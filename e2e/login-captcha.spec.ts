import { describe, it } from 'vitest';
import { useSuite } from './support/suite.ts';

/** Its own master: failures count per account and per IP, and every test here comes from 127.0.0.1. */
describe('login captcha', () => {
  const suite = useSuite();
  const FAILURE_LIMIT = 5;

  it('appears after repeated wrong passwords', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/login'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    for (let attempt = 0; attempt < FAILURE_LIMIT; attempt += 1) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/v1/login'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await answered;
    }
    await page.getByTestId('captcha-image').waitFor();
    await page.getByRole('textbox', { name: 'Captcha' }).waitFor();
  });
});
