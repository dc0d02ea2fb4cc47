import { describe, expect, it } from 'vitest';
import { adminToken, login, type RegisteredUser, registerUser } from './support/api.ts';
import { askToLogOut, consoleReady, pickFromMenu, siderEntries, userMenuEntries } from './support/console.ts';
import { setUserRole } from './support/database.ts';
import { useSuite } from './support/suite.ts';

const ADMIN_MENU = [
  'Service overview',
  'Sites',
  'Forwarding',
  'Nodes',
  'Configuration',
  'Package management',
  'Finance',
  'System',
  'Front-end log',
];
const USER_MENU = ['Service overview', 'Sites', 'Forwarding', 'Packages', 'Account', 'Front-end log'];

describe('console: landing, menus and the user menu', () => {
  const suite = useSuite();
  let admin = '';
  let user: RegisteredUser | undefined;
  const adminSession = async () => {
    const { baseUrl, adminPassword } = suite.master();
    if (!admin) admin = await adminToken(baseUrl, adminPassword);
    return admin;
  };
  const ordinary = async () => {
    user ??= await registerUser(suite.master().baseUrl, await adminSession(), 'olivia');
    return user;
  };

  it('lands an admin on admin-home with the admin menu, logo and user menu', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/login'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(suite.master().adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(suite.url('/admin-home'));
    await page.getByTestId('admin-home-page').waitFor();
    await expect.poll(() => page.title()).toBe('Service overview - Rampart');
    await expect.poll(() => siderEntries(page)).toEqual(ADMIN_MENU);
    await expect.poll(() => page.getByTestId('header-logo').getAttribute('href')).toBe('/dashboard/admin-home');
    await expect.poll(() => page.getByTestId('overview-user').textContent()).toContain('admin');
    await expect.poll(() => page.getByTestId('overview-system').textContent()).toContain('Site name');
    expect(await userMenuEntries(page)).toEqual(['System settings', 'Log out']);
    await pickFromMenu(page, {
      open: page.getByRole('button', { name: 'Account menu' }),
      item: page.getByRole('menuitem', { name: 'System settings' }),
      done: page.getByTestId('sys-setting-page'),
      what: 'system settings',
    });
    await page.waitForURL(suite.url('/sys/setting'));
  });

  it('lands an ordinary user on home with the customer menu and the personal center', async () => {
    const { token } = await ordinary();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/'));
    await page.waitForURL(suite.url('/home'));
    await page.getByTestId('home-page').waitFor();
    await expect.poll(() => siderEntries(page)).toEqual(USER_MENU);
    await page.getByTestId('sider').getByRole('menuitem', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'API key' }).waitFor();
    await expect
      .poll(() => siderEntries(page))
      .toEqual([
        ...USER_MENU.slice(0, 5),
        'Profile',
        'Message subscription',
        'Consumption records',
        'Log query',
        'API key',
        'Front-end log',
      ]);
    await expect.poll(() => page.getByTestId('header-logo').getAttribute('href')).toBe('/dashboard/home');
    expect(await userMenuEntries(page)).toEqual(['Personal center', 'Log out']);
    await pickFromMenu(page, {
      open: page.getByRole('button', { name: 'Account menu' }),
      item: page.getByRole('menuitem', { name: 'Personal center' }),
      done: page.getByTestId('account-user-page'),
      what: 'personal center',
    });
    await page.waitForURL(suite.url('/account/user'));
    // Admin pages are not the user's: the 403 page, inside the console.
    await page.goto(suite.url('/node/list'));
    await page.getByTestId('error-403').waitFor();
  });

  it('shows an admin only the areas their access list allows', async () => {
    const { baseUrl, dataDir } = suite.master();
    const limited = await registerUser(baseUrl, await adminSession(), 'nadia');
    setUserRole(dataDir, limited.id, 1, ['admin:node']);
    const page = await suite.openPage({ token: await login(baseUrl, limited.account, limited.password) });
    await page.goto(suite.url('/'));
    await page.waitForURL(suite.url('/admin-home'));
    await expect
      .poll(() => siderEntries(page))
      .toEqual(['Service overview', 'Sites', 'Forwarding', 'Nodes', 'Front-end log']);
    await page.goto(suite.url('/sys/setting'));
    await page.getByTestId('error-403').waitFor();
  });

  it('yields an empty menu when the menu call answers login_required', async () => {
    const { token } = await ordinary();
    const page = await suite.openPage({ token });
    await page.route('**/v1/common/menu2', (route) =>
      route.fulfill({ status: 401, json: { code: 'login_required', msg: 'Please sign in', data: null } }),
    );
    await page.goto(suite.url('/home'));
    await page.getByTestId('home-page').waitFor();
    await consoleReady(page);
    expect(page.url()).toBe(suite.url('/home'));
    await expect.poll(() => page.getByTestId('sider').count()).toBe(0);
  });

  it('asks before logging out, then revokes the token, removes the cookies and goes to login', async () => {
    const page = await suite.openPage({ token: await adminSession() });
    await page.goto(suite.url('/admin-home'));
    await consoleReady(page);
    const dialog = await askToLogOut(page);
    await dialog
      .getByText(
        'Are you sure you are logged out of your current account? Open tabs and personal settings will be saved.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(suite.url('/admin-home'));

    const revoked = page.waitForResponse(
      (response) => response.url().endsWith('/v1/common/auth') && response.request().method() === 'DELETE',
    );
    await (await askToLogOut(page)).getByRole('button', { name: 'Log out' }).click();
    expect((await revoked).status()).toBe(200);
    await page.waitForURL(suite.url('/login'));
    const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
    expect(cookies).not.toContain('token');
    expect(cookies).not.toContain('uuid');
    await page.goto(suite.url('/admin-home'));
    await page.waitForURL(suite.url('/login?redirect=%2Fadmin-home'));
  });

  it('switches the language from the header dropdown, with the page title and antd', async () => {
    const { token } = await ordinary();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/home'));
    await consoleReady(page);
    await pickFromMenu(page, {
      open: page.getByRole('button', { name: 'Language' }),
      item: page.getByRole('menuitem', { name: '简体中文' }),
      done: page.getByTestId('sider').getByRole('menuitem', { name: '服务概览' }),
      what: 'language',
    });
    await expect.poll(() => page.title()).toBe('服务概览 - Rampart');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.reload();
    await (await askToLogOut(page, 'zh'))
      .getByText('您确定退出登录当前账户吗？打开的标签页和个人设置将会保存。')
      .waitFor();
  });
});
