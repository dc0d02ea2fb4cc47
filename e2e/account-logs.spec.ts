import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const USER_AGENT_ZH = '浏览器 / 客户端';

describe('API key and operation log', () => {
  const suite = useSuite();
  // Exempt: the key's write creates a site without a package.
  const customer = exemptCustomerOf(suite, 'kira');

  it('creates a key in the browser, shows its secret once, and the key works against the API', async () => {
    const { token, account } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/api'));
    await page.getByTestId('api-key-page').waitFor();
    const form = await openDialog(page, page.getByRole('button', { name: 'Create API key' }));
    await form.getByLabel('Read and write').check();
    await form.getByLabel('IP allow list').fill('not-an-address');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('not-an-address is not an IP address or CIDR range').waitFor();
    await form.getByLabel('IP allow list').fill('127.0.0.1\n::1');
    await form.getByRole('button', { name: 'Create' }).click();

    const secret = page.getByTestId('api-key-token');
    await secret.waitFor();
    const keyToken = (await secret.textContent())?.trim() ?? '';
    expect(keyToken).toMatch(/^ak_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const keyId = keyToken.split('.')[0] ?? '';
    await page.getByTestId('api-key-id').getByText(keyId).waitFor();
    // Once the dialog is gone, the page never shows the secret again.
    await expect.poll(() => page.getByText(keyToken.split('.')[1] ?? '').count()).toBe(0);

    const { baseUrl } = suite.master();
    const me = await callApi<{ username: string }>(baseUrl, 'GET', '/v1/user', { token: keyToken });
    expect(me.username).toBe(account);
    await callApi(baseUrl, 'POST', '/v1/sites', {
      token: keyToken,
      body: {
        domains: ['keyed.example.com'],
        origins: [{ address: '127.0.0.1', port: 8080, weight: 1, backup: false }],
      },
    });
  });

  it('shows an admin the key’s write on /sys/log, with the masked changes in the detail drawer', async () => {
    const { token, password } = await customer();
    const { baseUrl, adminPassword } = suite.master();
    await callApi(baseUrl, 'PUT', '/v1/user', {
      token,
      body: { name: 'Kira', old_password: password, password: 'kira-New-Pass-2' },
    });
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword) });
    await page.goto(suite.url('/sys/log'));
    await page.getByTestId('sys-log-page').waitFor();
    const accountFilter = page.getByRole('searchbox', { name: 'Account', exact: true });
    await accountFilter.fill('kira');
    await accountFilter.press('Enter');
    const log = page.getByTestId('op-log');
    // Actions read as words, and the target by its name.
    const keyed = log.getByRole('row').filter({ hasText: 'Created site' });
    await keyed.getByText('API key').waitFor();
    await keyed.getByText('keyed.example.com').waitFor();
    const change = log.getByRole('row').filter({ hasText: 'Changed own profile' });
    const drawer = await openDialog(page, change.getByRole('button', { name: 'View' }));
    const changes = drawer.getByTestId('op-log-changes');
    await changes.getByText('"name": "Kira"', { exact: false }).waitFor();
    const text = (await changes.textContent()) ?? '';
    expect(text).toContain('"password": "******"');
    expect(text).not.toContain('kira-New-Pass-2');
  });

  it('shows the customer their own writes in words on /account/log in Chinese, and the browser uncut', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url('/account/log'));
    await page.getByTestId('account-log-page').waitFor();
    const agent = page.getByTestId('login-log').getByRole('columnheader', { name: USER_AGENT_ZH });
    await agent.waitFor();
    // The browser column keeps its width instead of being squeezed to nothing.
    await expect.poll(async () => (await agent.boundingBox())?.width ?? 0).toBeGreaterThan(200);
    await page.getByRole('tab', { name: '我的操作' }).click();
    const log = page.getByTestId('op-log');
    const created = log.getByRole('row').filter({ hasText: '创建网站' });
    await created.getByText('keyed.example.com').waitFor();
    await log.getByText('修改个人资料').waitFor();
    await page.getByText(/^共 \d+ 条$/).waitFor();
  });
});
