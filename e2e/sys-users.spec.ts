import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';
import { appCode } from './support/totp.ts';

describe('/sys/user: users and user groups', () => {
  const suite = useSuite();
  // Exempt: the owner's site needs no package.
  const owner = exemptCustomerOf(suite, 'olive');
  const applicant = exemptCustomerOf(suite, 'cora');

  const openUsers = async (locale?: string) => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword), ...(locale && { locale }) });
    await page.goto(suite.url('/sys/user'));
    await page.getByTestId('sys-user-page').waitFor();
    return page;
  };
  const search = async (page: Awaited<ReturnType<typeof openUsers>>, text: string) => {
    const box = page.getByRole('searchbox', { name: 'Start of account, email, phone or name' });
    await box.fill(text);
    await box.press('Enter');
  };

  it('creates a user with a generated password shown once, which signs in; bad input is named in the form', async () => {
    const page = await openUsers();
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add user' }));
    await drawer.getByLabel('Account').fill('x');
    await drawer.getByLabel('Email').fill('not-an-email');
    await page.getByTestId('user-drawer-submit').click();
    await drawer.getByText('3 to 32 letters, digits, _ . or -, not starting with . or -').waitFor();
    await drawer.getByText('Enter an email address such as name@example.com').waitFor();
    await drawer.getByLabel('Account').fill('walter');
    await drawer.getByLabel('Email').fill('walter@example.com');
    await page.getByTestId('user-drawer-submit').click();
    const shown = page.getByTestId('generated-password');
    await shown.waitFor();
    const password = (await shown.textContent())?.trim() ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const { baseUrl } = suite.master();
    const signedIn = await callApi<{ access_token: string }>(baseUrl, 'POST', '/v1/login', {
      body: { account: 'walter', password },
    });
    expect(signedIn.access_token.length).toBeGreaterThan(10);

    await search(page, 'walter@');
    const table = page.getByTestId('users-table');
    await table.getByRole('cell', { name: 'walter@example.com' }).waitFor();
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);
  });

  it('disables a user (their session stops at once), refuses to delete one who owns a site, and names why', async () => {
    const { token, account } = await owner();
    await createSite(suite, token, 'olive.example.com');
    const page = await openUsers();
    await search(page, account);
    await page.getByTestId(`user-disable:${account}`).click();
    await confirmPopup(page);
    await page.getByTestId('users-table').getByText('Disabled').waitFor();
    const { baseUrl } = suite.master();
    const stopped = await fetch(`${baseUrl}/v1/user`, { headers: { 'access-token': token } });
    expect(((await stopped.json()) as { code: string }).code).toBe('login_required');

    await page.getByTestId(`user-delete:${account}`).click();
    await confirmPopup(page);
    await page.getByTestId('delete-refusal').getByText(`user ${account} still has 1 site;`, { exact: false }).waitFor();
  });

  it('keeps user groups and moves selected users into one', async () => {
    const page = await openUsers();
    await page.getByRole('tab', { name: 'User groups' }).click();
    const form = await openDialog(page, page.getByRole('button', { name: 'Add group' }));
    await form.getByLabel('Name').fill('Gold');
    await form.getByLabel('Default for new users').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('user-groups').getByText('Gold').waitFor();
    await page.getByTestId('user-groups').getByText('Default', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await search(page, 'walter');
    const row = page.getByTestId('users-table').getByRole('row').filter({ hasText: 'walter@example.com' });
    await row.getByRole('checkbox').check();
    await page.getByLabel('Move to group').click();
    // antd renders each option with its label as the title; the listbox roles are only for screen readers.
    await page.getByTitle('Gold', { exact: true }).filter({ visible: true }).click();
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await confirmPopup(page);
    await row.getByText('Gold').waitFor();
  });

  it('signs in as a user with a banner and goes back to the admin', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const admin = await adminToken(baseUrl, adminPassword);
    await callApi(baseUrl, 'POST', '/v1/users', {
      token: admin,
      body: { username: 'quinn', password: 'quinn-pass-1' },
    });
    const page = await openUsers();
    await search(page, 'quinn');
    await page.getByTestId('user-impersonate:quinn').click();
    await confirmPopup(page);
    const banner = page.getByTestId('impersonation-banner');
    await banner.getByText('You are signed in as quinn by admin.').waitFor();
    await page.getByRole('button', { name: 'Back to admin' }).click();
    await page.getByTestId('sys-user-page').waitFor();
    await expect.poll(() => banner.count()).toBe(0);
    const log = await callApi<{ list: { action: string; impersonator_id: number | null }[] }>(
      baseUrl,
      'GET',
      '/v1/log/op?page=1&limit=10&action=users.impersonate.create',
      { token: admin },
    );
    expect(log.list.length).toBeGreaterThan(0);
  });

  it('approves a certification request in its tab and resets a user’s two-factor sign-in from the drawer', async () => {
    const { baseUrl } = suite.master();
    const { token, account, password } = await applicant();
    await callApi(baseUrl, 'POST', '/v1/user/certify', {
      token,
      body: { type: 'personal', name: '张三', id_number: '11010519491231002X' },
    });
    const { secret } = await callApi<{ secret: string }>(baseUrl, 'POST', '/v1/user/two-factor', {
      token,
      body: { password },
    });
    await callApi(baseUrl, 'PUT', '/v1/user/two-factor', { token, body: { code: appCode(secret) } });

    const page = await openUsers();
    await page.getByRole('tab', { name: 'Certification' }).click();
    const request = page.getByTestId('certification-review').getByRole('row').filter({ hasText: account });
    await request.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Approve' }).click();
    const admin = await adminToken(baseUrl, suite.master().adminPassword);
    const certified = async () =>
      (
        await callApi<{ list: { account: string; certified: boolean }[] }>(
          baseUrl,
          'GET',
          `/v1/users?search=${account}`,
          { token: admin },
        )
      ).list.find((user) => user.account === account)?.certified;
    await expect.poll(certified).toBe(true);

    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await search(page, account);
    const drawer = await openDialog(page, page.getByTestId(`user-edit:${account}`));
    await drawer.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Reset two-factor sign-in' }).click();
    const { id } = await callApi<{ id: number }>(baseUrl, 'GET', '/v1/user', { token });
    const status = () =>
      callApi<{ enabled: boolean }>(baseUrl, 'GET', `/v1/users/${id}/two-factor`, { token: admin }).then(
        (answer) => answer.enabled,
      );
    await expect.poll(status).toBe(false);
  });

  it('speaks Chinese (zh-CN)', async () => {
    const page = await openUsers('zh-CN');
    await page.getByRole('tab', { name: '用户组' }).waitFor();
    await page.getByRole('button', { name: '添加用户' }).waitFor();
    await page.getByRole('searchbox', { name: '账号、邮箱、手机或姓名的开头' }).waitFor();
  });

  it('names the admin permissions in words, in English and in Chinese', async () => {
    for (const [locale, add, admin, labels] of [
      ['en-US', 'Add user', 'Admin', ['Fleet (nodes)', 'Edge defaults', 'Packages', 'Finance', 'System', 'Customers']],
      ['zh-CN', '添加用户', '管理员', ['节点', '默认配置', '套餐', '财务', '系统', '用户']],
    ] as const) {
      const page = await openUsers(locale);
      const drawer = await openDialog(page, page.getByRole('button', { name: add }));
      await drawer.getByRole('radio', { name: admin }).check();
      for (const label of labels) await drawer.getByRole('checkbox', { name: label, exact: true }).waitFor();
      await expect.poll(() => drawer.getByText(/admin:|^node$|^sys$/).count()).toBe(0);
    }
  });

  it('starts a new user in the default group, and saves a customer exempt from packages, marked in the list', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const admin = await adminToken(baseUrl, adminPassword);
    await callApi(baseUrl, 'POST', '/v1/user-groups', { token: admin, body: { name: 'Silver', is_default: true } });
    const page = await openUsers();
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add user' }));
    await drawer.getByTitle('Silver', { exact: true }).waitFor();
    await drawer.getByLabel('Account').fill('xena');
    const exempt = drawer.getByRole('switch', { name: 'Unlimited by packages (exempt)' });
    await exempt.click();
    await expect.poll(() => exempt.getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('user-drawer-submit').click();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const saved = async () =>
      (
        await callApi<{ list: { account: string; package_exempt: boolean; group_name: string | null }[] }>(
          baseUrl,
          'GET',
          '/v1/users?search=xena',
          { token: admin },
        )
      ).list.find((user) => user.account === 'xena');
    await expect.poll(saved).toMatchObject({ package_exempt: true, group_name: 'Silver' });
    await search(page, 'xena');
    await page.getByTestId('user-exempt:xena').getByText('Unlimited by packages').waitFor();

    // Taken away again from the drawer: the mark goes.
    const edit = await openDialog(page, page.getByTestId('user-edit:xena'));
    await edit.getByRole('switch', { name: 'Unlimited by packages (exempt)' }).click();
    await page.getByTestId('user-drawer-submit').click();
    await expect.poll(saved).toMatchObject({ package_exempt: false });
    await expect.poll(() => page.getByTestId('user-exempt:xena').count()).toBe(0);
  });

  it('offers no exemption for an admin account', async () => {
    const page = await openUsers();
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add user' }));
    await drawer.getByRole('switch', { name: 'Unlimited by packages (exempt)' }).waitFor();
    await drawer.getByRole('radio', { name: 'Admin' }).check();
    await expect.poll(() => drawer.getByRole('switch', { name: 'Unlimited by packages (exempt)' }).count()).toBe(0);
  });
});
