import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi, type RegisteredUser, registerUser } from './support/api.ts';
import { openInApp } from './support/navigate.ts';
import { openDialog } from './support/overlays.ts';
import { useSuite } from './support/suite.ts';

interface UserPackage {
  id: number;
  name: string;
  end_at: string;
  auto_renew: boolean;
}

describe('/user-package/buy and /user-package/my: buying, renewing and a balance too short', () => {
  const suite = useSuite();
  let catalogue: Promise<void> | undefined;

  const admin = () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  /** One package group with a cheap and a dear package, a 10% yearly discount and a 5.00 coupon. */
  const setUpCatalogue = async () => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const group = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/package-groups', {
      token,
      body: { name: 'Web', sort: 1, description: 'Sites and streams' },
    });
    await callApi(baseUrl, 'POST', '/v1/packages', {
      token,
      body: {
        name: 'Starter',
        group_id: group.id,
        price_month: 1000,
        price_year: 10000,
        on_sale: true,
        traffic_gb: 100,
        max_sites: 5,
        max_domains: 10,
        max_streams: 2,
        max_ports: 4,
        https: true,
      },
    });
    await callApi(baseUrl, 'POST', '/v1/packages', {
      token,
      body: { name: 'Enterprise', group_id: group.id, price_month: 500_000, on_sale: true, max_sites: 500 },
    });
    await callApi(baseUrl, 'POST', '/v1/package-ups', {
      token,
      body: { name: 'More sites', kind: 'max_sites', amount: 5, price_month: 300, on_sale: true },
    });
    await callApi(baseUrl, 'POST', '/v1/discounts', { token, body: { term: 'year', percent: 10 } });
    await callApi(baseUrl, 'POST', '/v1/coupons', {
      token,
      body: { code: 'SAVE5', kind: 'amount', value: 500, uses_per_user: 5, uses_total: 100 },
    });
  };
  /** A customer with `cents` on the balance, credited by the admin. */
  const customer = async (username: string, cents: number): Promise<RegisteredUser> => {
    catalogue ??= setUpCatalogue();
    await catalogue;
    const { baseUrl } = suite.master();
    const token = await admin();
    const user = await registerUser(baseUrl, token, username);
    if (cents !== 0) await callApi(baseUrl, 'POST', `/v1/user/${user.id}/recharge`, { token, body: { amount: cents } });
    return user;
  };
  const balanceOf = async (user: RegisteredUser) =>
    (await callApi<{ balance: number }>(suite.master().baseUrl, 'GET', '/v1/user', { token: user.token })).balance;
  const packagesOf = async (user: RegisteredUser) =>
    (await callApi<{ list: UserPackage[] }>(suite.master().baseUrl, 'GET', '/v1/user-packages', { token: user.token }))
      .list;
  const openBuyPage = async (user: RegisteredUser, locale?: string) => {
    const page = await suite.openPage({ token: user.token, ...(locale && { locale }) });
    await page.goto(suite.url('/user-package/buy'));
    await page.getByTestId('user-package-buy-page').waitFor();
    return page;
  };
  /** Waits until the live price in the dialog reads `amount`. */
  const priced = (dialog: Locator, amount: string) =>
    dialog
      .getByTestId('quote-amount')
      .filter({ hasText: new RegExp(`^${amount.replace('.', '\\.')}$`) })
      .waitFor();
  const row = (page: Page, name: string) =>
    page.getByTestId('user-package-table').locator('tbody tr.ant-table-row').filter({ hasText: name });

  it('shows the package with its discount, takes a coupon off the price, buys it and renews it', async () => {
    const user = await customer('petra', 5000);
    const page = await openBuyPage(user);
    await page.getByTestId('user-balance').filter({ hasText: '50.00' }).waitFor();
    const card = page.getByTestId('package-card:Starter');
    await page.getByTestId('package-shelf:Web').getByText('Sites and streams').waitFor();
    await card.getByTestId('package-price:Starter:month').filter({ hasText: '10.00' }).waitFor();
    await card.getByTestId('package-price:Starter:year').filter({ hasText: '-10%' }).waitFor();

    const dialog = await openDialog(page, page.getByTestId('package-buy:Starter'));
    await priced(dialog, '10.00');
    const coupon = dialog.getByLabel('Coupon', { exact: true });
    await coupon.fill('NOPE1');
    await dialog.getByText('NOPE1 does not exist').waitFor();
    await coupon.fill('SAVE5');
    await priced(dialog, '5.00');
    await dialog.getByTestId('quote-coupon-off').filter({ hasText: '-5.00' }).waitFor();
    await dialog.getByRole('button', { name: 'Pay from balance' }).click();

    await page.getByTestId('user-package-my-page').waitFor();
    const bought = row(page, 'Starter');
    await bought.getByTestId('user-package-state:Starter').filter({ hasText: 'Active' }).waitFor();
    await bought.getByTestId('usage-sites:Starter').filter({ hasText: '0 / 5' }).waitFor();
    await page.getByTestId('user-balance').filter({ hasText: '45.00' }).waitFor();
    expect(await balanceOf(user)).toBe(4500);
    const [before] = await packagesOf(user);
    if (!before) throw new Error('the purchase made no user package');

    const renewal = await openDialog(page, page.getByTestId('user-package-renew:Starter'));
    await priced(renewal, '10.00');
    await renewal.getByRole('radio', { name: /^Year/ }).check();
    await priced(renewal, '90.00');
    await renewal.getByTestId('balance-short').waitFor();
    await renewal.getByRole('radio', { name: /^Month/ }).check();
    await renewal.getByLabel('Number of terms', { exact: true }).fill('2');
    await priced(renewal, '20.00');
    await renewal.getByRole('button', { name: 'Pay from balance' }).click();
    await page.getByTestId('user-balance').filter({ hasText: '25.00' }).waitFor();
    expect(await balanceOf(user)).toBe(2500);
    const [after] = await packagesOf(user);
    expect(Date.parse(after?.end_at ?? '')).toBeGreaterThan(Date.parse(before.end_at) + 55 * 86_400_000);
  });

  /** The purchases (not the quotes) the page sends: POST /v1/user-packages without `quote`. */
  const purchasesSentBy = (page: Page) => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/v1/user-packages') return;
      const body = request.postData() ?? '';
      if (!body.includes('"quote":true')) sent.push(body);
    });
    return sent;
  };

  it('holds back a purchase a zero balance cannot cover, says what is missing and links to the recharge and back', async () => {
    const user = await customer('quinn', 0);
    const page = await openBuyPage(user);
    const purchases = purchasesSentBy(page);
    const dialog = await openDialog(page, page.getByTestId('package-buy:Enterprise'));
    await priced(dialog, '5000.00');
    const notice = dialog.getByTestId('balance-short');
    await notice.getByText('Your balance is 5000.00 short: recharge first').waitFor();
    const pay = dialog.getByRole('button', { name: 'Pay from balance' });
    await expect.poll(() => pay.isDisabled()).toBe(true);
    await pay.click({ force: true });
    await dialog.getByRole('button', { name: 'Pay from balance' }).press('Enter');
    await notice.getByTestId('recharge-link').click();
    await page.waitForURL(/\/account\/balance\?back=%2Fuser-package%2Fbuy$/);
    await page.getByTestId('account-balance-page').waitFor();
    await page.getByTestId('recharge-back').click();
    await page.getByTestId('user-package-buy-page').waitFor();
    expect(purchases).toEqual([]);
    expect(await balanceOf(user)).toBe(0);
    expect(await packagesOf(user)).toEqual([]);
  });

  it('links every balance to the recharge page: the buy page and My packages', async () => {
    const user = await customer('ulla', 0);
    const page = await openBuyPage(user);
    await page.getByTestId('user-balance').filter({ hasText: '0.00' }).waitFor();
    await page.getByTestId('recharge-link').click();
    await page.waitForURL(/\/account\/balance\?back=%2Fuser-package%2Fbuy$/);
    await openInApp(page, '/user-package/my');
    await page.getByTestId('user-package-my-page').waitFor();
    // A customer without a package, who needs one: the page says so and leads to the buy page.
    await page.getByTestId('package-required').getByText('A package is needed to add sites and streams.').waitFor();
    await page.getByTestId('recharge-link').click();
    await page.waitForURL(/\/account\/balance\?back=%2Fuser-package%2Fmy$/);
    await page.getByTestId('recharge-back').click();
    await page.getByTestId('package-required-buy').click();
    await page.getByTestId('user-package-buy-page').waitFor();
  });

  it('tells an account that packages do not limit it so, instead of asking for one', async () => {
    const user = await customer('vera', 0);
    const { baseUrl } = suite.master();
    await callApi(baseUrl, 'PUT', '/v1/users', {
      token: await admin(),
      body: { ids: [user.id], action: 'package_exempt', package_exempt: true },
    });
    const page = await suite.openPage({ token: user.token });
    await page.goto(suite.url('/user-package/my'));
    await page
      .getByTestId('user-package-empty')
      .getByText('Your account is not limited by packages: you can add sites and streams without one.')
      .waitFor();
    expect(await page.getByTestId('package-required').count()).toBe(0);
  });

  it('words a refused payment in Chinese on a zh-CN page, not in the server’s English', async () => {
    const user = await customer('wanda', 1000);
    const page = await openBuyPage(user, 'zh-CN');
    const dialog = await openDialog(page, page.getByTestId('package-buy:Starter'));
    await priced(dialog, '10.00');
    // The balance drops after the price was quoted: the server refuses the payment with 402.
    await callApi(suite.master().baseUrl, 'POST', `/v1/user/${user.id}/recharge`, {
      token: await admin(),
      body: { amount: -500 },
    });
    await dialog.getByRole('button', { name: '余额支付' }).click();
    const notice = dialog.getByTestId('balance-short');
    await notice.getByText('余额不足：当前余额 5.00，需支付 10.00，还差 5.00').waitFor();
    expect(await dialog.getByText('does not cover', { exact: false }).count()).toBe(0);
    await notice.getByTestId('recharge-link').filter({ hasText: '充值' }).waitFor();
    expect(await packagesOf(user)).toEqual([]);
  });

  it('adds upgrade packs at the quoted price and lists them under the package', async () => {
    const user = await customer('sasha', 5000);
    const { baseUrl } = suite.master();
    const starter = await starterId(user);
    await callApi(baseUrl, 'POST', '/v1/user-packages', {
      token: user.token,
      body: { package_id: starter.id, term: 'month', terms: 1 },
    });
    const [owned] = await packagesOf(user);
    const packs = await callApi<{ list: { id: number; name: string }[] }>(baseUrl, 'GET', '/v1/package-ups', {
      token: user.token,
    });
    const pack = packs.list.find((entry) => entry.name === 'More sites');
    if (!owned || !pack) throw new Error('no user package or no upgrade pack');
    const quote = await callApi<{ price: number }>(
      baseUrl,
      'GET',
      `/v1/user-package/${owned.id}/upgrades/${pack.id}?amount=2`,
      { token: user.token },
    );
    const money = (cents: number) => (cents / 100).toFixed(2);

    const page = await suite.openPage({ token: user.token });
    await page.goto(suite.url('/user-package/my'));
    await page.getByTestId('user-package-my-page').waitFor();
    const dialog = await openDialog(page, page.getByTestId('user-package-upgrade:Starter'));
    await dialog.getByTestId('upgrade-price').waitFor();
    await dialog.getByLabel('Number of packs', { exact: true }).fill('2');
    await dialog
      .getByTestId('upgrade-price')
      .filter({ hasText: money(quote.price) })
      .waitFor();
    await dialog.getByText('+10', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Pay from balance' }).click();
    const upgraded = row(page, 'Starter');
    await upgraded.getByTestId('usage-sites:Starter').filter({ hasText: '0 / 15' }).waitFor();
    await page
      .getByTestId('user-balance')
      .filter({ hasText: money(4000 - quote.price) })
      .waitFor();
    await upgraded.getByRole('button', { name: 'Expand row' }).click();
    const list = page.getByTestId(`upgrade-list:${owned.id}`);
    await list.getByRole('cell', { name: 'More sites' }).waitFor();
    await list.getByRole('cell', { name: '+10', exact: true }).waitFor();

    await page.getByRole('switch', { name: 'Auto-renew Starter' }).click();
    await expect.poll(async () => (await packagesOf(user))[0]?.auto_renew).toBe(true);
    const rename = await openDialog(page, page.getByRole('button', { name: 'Rename Starter' }));
    await rename.getByLabel('Name', { exact: true }).fill('Shop');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId(`user-package-name:${owned.id}`).filter({ hasText: 'Shop' }).waitFor();
  });

  it('after a renewal, extends the upgrade packs to the package’s end at the price it showed first', async () => {
    const user = await customer('tomas', 10_000);
    const { baseUrl } = suite.master();
    await callApi(baseUrl, 'POST', '/v1/user-packages', {
      token: user.token,
      body: { package_id: (await starterId(user)).id, term: 'month', terms: 1 },
    });
    const [owned] = await packagesOf(user);
    const packs = await callApi<{ list: { id: number; name: string }[] }>(baseUrl, 'GET', '/v1/package-ups', {
      token: user.token,
    });
    const pack = packs.list.find((entry) => entry.name === 'More sites');
    if (!owned || !pack) throw new Error('no user package or no upgrade pack');
    await callApi(baseUrl, 'POST', `/v1/user-package/${owned.id}/upgrades`, {
      token: user.token,
      body: { package_up_id: pack.id, amount: 1 },
    });
    await callApi(baseUrl, 'PUT', `/v1/user-packages/${owned.id}`, {
      token: user.token,
      body: { renew: { term: 'month', terms: 1 } },
    });
    const quote = await callApi<{ price: number }>(baseUrl, 'PUT', `/v1/user-package/${owned.id}/upgrades`, {
      token: user.token,
      body: { quote: true },
    });
    const before = await balanceOf(user);
    const money = (cents: number) => (cents / 100).toFixed(2);

    const page = await suite.openPage({ token: user.token });
    await page.goto(suite.url('/user-package/my'));
    await page.getByTestId('user-package-my-page').waitFor();
    await row(page, 'Starter').getByRole('button', { name: 'Expand row' }).click();
    const dialog = await openDialog(page, page.getByTestId('extend-packs:Starter'));
    await dialog
      .getByTestId('extend-price')
      .filter({ hasText: money(quote.price) })
      .waitFor();
    expect(await balanceOf(user)).toBe(before);
    await dialog.getByRole('button', { name: 'Pay from balance' }).click();
    await page
      .getByTestId('user-balance')
      .filter({ hasText: money(before - quote.price) })
      .waitFor();
    await page.getByTestId('extend-packs:Starter').waitFor({ state: 'detached' });
    const [renewed] = await packagesOf(user);
    const upgrades = await callApi<{ list: { end_at: string }[] }>(
      baseUrl,
      'GET',
      `/v1/user-package/${owned.id}/upgrades`,
      { token: user.token },
    );
    expect(upgrades.list.map((upgrade) => upgrade.end_at)).toEqual([renewed?.end_at]);
  });

  it('speaks Chinese on both pages', async () => {
    const user = await customer('rosa', 3000);
    await callApi(suite.master().baseUrl, 'POST', '/v1/user-packages', {
      token: user.token,
      body: { package_id: (await starterId(user)).id, term: 'month', terms: 1 },
    });
    const page = await openBuyPage(user, 'zh-CN');
    // antd spaces out a two-character Chinese button label.
    await page
      .getByTestId('package-buy:Starter')
      .filter({ hasText: /^购\s?买$/ })
      .waitFor();
    await page.getByTestId('package-price:Starter:month').getByText('月付', { exact: false }).waitFor();
    await page.goto(suite.url('/user-package/my'));
    await page.getByTestId('user-package-my-page').waitFor();
    await page.getByRole('columnheader', { name: '自动续费' }).waitFor();
    await row(page, 'Starter').getByTestId('user-package-state:Starter').filter({ hasText: '正常' }).waitFor();
    await page.getByTestId('user-balance').filter({ hasText: '20.00' }).waitFor();
  });

  const starterId = async (user: RegisteredUser) => {
    const { list } = await callApi<{ list: { id: number; name: string }[] }>(
      suite.master().baseUrl,
      'GET',
      '/v1/packages',
      { token: user.token },
    );
    const found = list.find((pkg) => pkg.name === 'Starter');
    if (!found) throw new Error('Starter is not on sale');
    return found;
  };
});
