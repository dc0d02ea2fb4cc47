import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { openInApp } from './support/navigate.ts';
import { useSuite } from './support/suite.ts';

describe('/sys/setting and /sys/task', () => {
  const suite = useSuite();

  const openAdmin = async (path: string, testId: string, locale?: string) => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword), ...(locale && { locale }) });
    await page.goto(suite.url(path));
    await page.getByTestId(testId).waitFor();
    return page;
  };

  it('saves the site name and footer, and the sign-in page shows them; a bad link is named in the form', async () => {
    const page = await openAdmin('/sys/setting', 'sys-setting-page');
    const form = page.getByTestId('sys-setting-page');
    await form.getByLabel('Site name').fill('Harbor Edge');
    await form.getByLabel('Footer text').fill('© 2026 Harbor Networks');
    await form.getByLabel('Footer link').fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Enter an http:// or https:// address, or leave it empty').waitFor();
    await form.getByLabel('Footer link').fill('https://harbor.example.com/');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();

    const visitor = await suite.openPage();
    await visitor.goto(suite.url('/login'));
    await expect.poll(() => visitor.getByTestId('auth-brand').textContent()).toBe('Harbor Edge');
    const footer = visitor.getByRole('link', { name: '© 2026 Harbor Networks' });
    await footer.waitFor();
    await expect.poll(() => footer.getAttribute('href')).toBe('https://harbor.example.com/');
  });

  it('never shows a saved SMTP password again, and keeps it when the form is saved as it is', async () => {
    const page = await openAdmin('/sys/setting', 'sys-setting-page');
    const form = page.getByTestId('sys-setting-page');
    await form.getByRole('tab', { name: 'Email (SMTP)' }).click();
    await form.getByLabel('Host').fill('smtp.harbor.example.com');
    await form.getByLabel('User name').fill('mailer');
    await form.getByLabel('Password').fill('e2e-smtp-secret-42');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();

    await page.reload();
    await form.getByRole('tab', { name: 'Email (SMTP)' }).click();
    await form.getByText('Saved and hidden. Leave it as it is to keep it, or type a new one to replace it.').waitFor();
    await expect.poll(() => form.getByLabel('Password').inputValue()).toBe('******');
    expect(await page.content()).not.toContain('e2e-smtp-secret-42');
    await form.getByLabel('Port').fill('2525');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();

    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const saved = await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-system-smtp', { token });
    expect(saved).toMatchObject({ smtp_host: 'smtp.harbor.example.com', smtp_port: 2525, smtp_password: '******' });
  });

  it('runs a scheduled task now and shows its result', async () => {
    const page = await openAdmin('/sys/task', 'sys-task-page');
    const row = page.getByTestId('scheduled-tasks').getByRole('row').filter({ hasText: 'Log retention' });
    await row.getByRole('button', { name: 'Run now' }).click();
    await row.getByText('Succeeded').waitFor();
    await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('works in zh-CN', async () => {
    const page = await openAdmin('/sys/setting', 'sys-setting-page', 'zh-CN');
    const form = page.getByTestId('sys-setting-page');
    await form.getByRole('tab', { name: '密码策略' }).click();
    await form.getByLabel('最短密码长度').fill('3');
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await form.getByText('6 到 64 之间的整数').waitFor();
    await form.getByLabel('最短密码长度').fill('8');
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await page.getByText('设置已保存').waitFor();

    await openInApp(page, '/sys/task');
    const row = page.getByTestId('scheduled-tasks').getByRole('row').filter({ hasText: '证书续期' });
    await row.getByRole('button', { name: '立即运行' }).click();
    await row.getByText('成功').waitFor();
  });

  it('turns off the need for a package in the Business tab, in English and in Chinese', async () => {
    const page = await openAdmin('/sys/setting', 'sys-setting-page');
    const form = page.getByTestId('sys-setting-page');
    await form.getByRole('tab', { name: 'Business' }).click();
    await form
      .getByText(
        'Customers need an active package to add sites and streams; operators and exempt accounts are never limited.',
      )
      .waitFor();
    const required = form.getByRole('switch', { name: 'Customers need a package' });
    await expect.poll(() => required.getAttribute('aria-checked')).toBe('true');
    await required.click();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();
    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const saved = await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-system-business', {
      token,
    });
    expect(saved).toMatchObject({ require_package: false });

    const zh = await openAdmin('/sys/setting', 'sys-setting-page', 'zh-CN');
    const zhForm = zh.getByTestId('sys-setting-page');
    await zhForm.getByRole('tab', { name: '业务' }).click();
    const zhRequired = zhForm.getByRole('switch', { name: '用户需有套餐' });
    await expect.poll(() => zhRequired.getAttribute('aria-checked')).toBe('false');
    await zhRequired.click();
    await zhForm.getByRole('button', { name: /^保\s?存$/ }).click();
    await zh.getByText('设置已保存').waitFor();
    await expect
      .poll(
        async () =>
          (await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-system-business', { token }))
            .require_package,
      )
      .toBe(true);
  });
});
