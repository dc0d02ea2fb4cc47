import { describe, expect, it } from 'vitest';
import { adminToken, callApi, latestCode } from './support/api.ts';
import { useSuite } from './support/suite.ts';

describe('registration', () => {
  const suite = useSuite();

  /** Registration asking for the email and, optionally, the phone; the suite's master sends mail but no SMS. */
  const askForPhone = async () => {
    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const register = await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-system-register', {
      token,
    });
    await callApi(baseUrl, 'PUT', '/v1/configs/global-0-system-register', {
      token,
      body: { ...register, register_phone: 'optional', register_email: 'required' },
    });
  };

  it('offers no Send code for the phone while SMS is not set up, yet still asks for the phone', async () => {
    await askForPhone();
    const page = await suite.openPage();
    await page.goto(suite.url('/register'));
    await page.getByLabel('Phone', { exact: true }).waitFor();
    await page.getByTestId('send-email-code').waitFor();
    expect(await page.getByTestId('send-phone-code').count()).toBe(0);
    expect(await page.getByLabel('SMS code').count()).toBe(0);
  });

  it('says in Chinese that a code cannot be sent when the master answers channel_unavailable', async () => {
    const page = await suite.openPage({ locale: 'zh-CN' });
    await page.route('**/v1/email-captcha', (route) =>
      route.fulfill({
        status: 409,
        json: {
          code: 'channel_unavailable',
          msg: 'email codes cannot be sent',
          data: null,
          params: { channel: 'email' },
        },
      }),
    );
    await page.goto(suite.url('/register'));
    await page.getByLabel('邮箱', { exact: true }).fill('late@example.com');
    await page.getByTestId('send-email-code').click();
    await page.getByText(/^系统未配置.*channel_unavailable$/).waitFor();
    expect(await page.getByText('验证码已发送').count()).toBe(0);
  });

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
    // The email code is required with the email, and marked so.
    await expect
      .poll(() => page.locator('label[for="register_emailCode"]').getAttribute('class'))
      .toContain('ant-form-item-required');
    await page.getByLabel('I have read and accept the user agreement').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(suite.url('/home'));
    await page.getByText('Registration success').waitFor();
    await page.getByTestId('home-page').waitFor();
  });

  it('links the agreement from its checkbox, opening in a new tab', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const register = await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-system-register', {
      token,
    });
    await callApi(baseUrl, 'PUT', '/v1/configs/global-0-system-register', {
      token,
      body: { ...register, agreement_url: 'https://harbor.example.com/terms' },
    });
    const page = await suite.openPage();
    await page.goto(suite.url('/register'));
    const link = page.getByRole('link', { name: 'user agreement' });
    await expect.poll(() => link.getAttribute('href')).toBe('https://harbor.example.com/terms');
    expect(await link.getAttribute('target')).toBe('_blank');
  });
});
