import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

interface PackageRow {
  id: number;
  name: string;
  group_name: string | null;
  price_month: number | null;
  price_quarter: number | null;
  price_year: number | null;
}
interface UserPackageRow {
  id: number;
  end_at: string;
  state: string;
}

const DAY_MS = 86_400_000;

describe('/package/basic, /package/upgrade, /package/marketing and /package/sold', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'pauline');

  const admin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  const open = async (path: string, testId: string, locale?: string) => {
    const page = await suite.openPage({ token: await admin(), ...(locale && { locale }) });
    await page.goto(suite.url(path));
    await page.getByTestId(testId).waitFor();
    return page;
  };
  /** A package made through the API, for the pages that only pick one. */
  const packageNamed = async (name: string) => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const { list } = await callApi<{ list: PackageRow[] }>(baseUrl, 'GET', '/v1/packages?page=1&limit=1000', { token });
    return (
      list.find((pkg) => pkg.name === name) ??
      callApi<PackageRow>(baseUrl, 'POST', '/v1/packages', { token, body: { name, price_month: 1000 } })
    );
  };
  /** Opens a select and picks an option; a click lost while the list opens or closes is made again. */
  const choose = async (page: Page, select: Locator, title: string) => {
    // antd renders each option with its label as the title; the listbox roles are only for screen readers.
    const option = page.locator('.ant-select-dropdown:visible').getByTitle(title, { exact: true });
    for (let attempt = 1; ; attempt++) {
      await select.click();
      try {
        await option.click({ timeout: 10_000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        console.warn(`option ${title} was not picked on attempt ${attempt}; opening the select again`);
      }
    }
  };
  const closeDropdowns = async (page: Page) => {
    await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  };

  it('adds a package group, then a package in it with prices, refusing a price with three decimals', async () => {
    const page = await open('/package/basic', 'package-basic-page');
    await page.getByRole('tab', { name: 'Package groups' }).click();
    const groupForm = await openDialog(page, page.getByRole('button', { name: 'Add group' }));
    await groupForm.getByLabel('Name', { exact: true }).fill('Web');
    await groupForm.getByLabel('Sort', { exact: true }).fill('2');
    await groupForm.getByLabel('Description', { exact: true }).fill('Sites and shops');
    await groupForm.getByRole('button', { name: 'Save' }).click();
    const groupRow = page
      .getByTestId('package-group-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: 'Web' });
    await groupRow.getByRole('cell', { name: 'Sites and shops' }).waitFor();

    await page.getByRole('tab', { name: 'Packages', exact: true }).click();
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add package' }));
    await drawer.getByLabel('Name', { exact: true }).fill('Pro');
    // A new package starts off sale.
    await expect.poll(() => drawer.getByRole('switch', { name: 'On sale' }).getAttribute('aria-checked')).toBe('false');
    await choose(page, drawer.getByLabel('Package group', { exact: true }), 'Web');
    await closeDropdowns(page);
    const month = drawer.getByLabel('Price per month', { exact: true });
    await month.fill('12.345');
    await page.getByTestId('package-submit').click();
    await drawer.getByText('An amount such as 12.50: digits with at most two decimals').waitFor();
    await month.fill('19.9');
    await drawer.getByLabel('Price per year', { exact: true }).fill('199');
    await drawer.getByLabel('Sites', { exact: true }).fill('5');
    await page.getByTestId('package-submit').click();

    const row = page.getByTestId('package-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Pro' });
    // Name, group, prices by month / quarter (not sold) / year, traffic, bandwidth, limits and site features.
    await expect
      .poll(async () => (await row.locator('td').allInnerTexts()).slice(1, 7))
      .toEqual(['Pro', 'Web', '19.90 / — / 199.00', 'Unlimited', 'Unlimited', '5 / 10 / 0 / 0\nFeatures: all']);
    const pro = await packageNamed('Pro');
    expect(pro).toMatchObject({ group_name: 'Web', price_month: 1990, price_quarter: null, price_year: 19900 });
  });

  it('asks before saving a package that allows more sites than domains', async () => {
    const page = await open('/package/basic', 'package-basic-page');
    const drawer = await openDialog(page, page.getByRole('button', { name: 'Add package' }));
    await drawer.getByLabel('Name', { exact: true }).fill('Wide');
    await drawer.getByLabel('Sites', { exact: true }).fill('20');
    await drawer.getByLabel('Domains', { exact: true }).fill('10');
    await page.getByTestId('package-submit').click();
    const warning = page.getByRole('dialog').filter({ hasText: 'More sites than domains' });
    await warning
      .getByText('This package allows 20 sites but 10 domains in all: not every site can have a domain.', {
        exact: false,
      })
      .waitFor();
    await warning.getByRole('button', { name: 'Go back' }).click();
    await warning.waitFor({ state: 'detached' });
    expect((await packageNamed('Starter')).name).toBe('Starter');
    const { baseUrl } = suite.master();
    const names = async () =>
      (
        await callApi<{ list: PackageRow[] }>(baseUrl, 'GET', '/v1/packages?page=1&limit=1000', {
          token: await admin(),
        })
      ).list.map((pkg) => pkg.name);
    expect(await names()).not.toContain('Wide');
    await page.getByTestId('package-submit').click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'More sites than domains' })
      .getByRole('button', { name: 'Save anyway' })
      .click();
    await expect.poll(names).toContain('Wide');
    // Sold and stock are in view at 1280 px, not under another column.
    const table = page.getByTestId('package-table');
    const shown = await table.boundingBox();
    const sold = await table.getByRole('columnheader', { name: 'Sold / stock' }).boundingBox();
    expect((sold?.x ?? Infinity) + (sold?.width ?? 0)).toBeLessThanOrEqual((shown?.x ?? 0) + (shown?.width ?? 0));
  });

  it('adds an upgrade pack for one package', async () => {
    await packageNamed('Starter');
    const page = await open('/package/upgrade', 'package-upgrade-page');
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add upgrade pack' }));
    await dialog.getByLabel('Name', { exact: true }).fill('Traffic 100');
    await choose(page, dialog.getByLabel('Adds', { exact: true }), 'Traffic');
    await closeDropdowns(page);
    await dialog.getByLabel('Amount', { exact: true }).fill('100');
    await dialog.getByLabel('Price per month', { exact: true }).fill('5');
    await choose(page, dialog.getByLabel('For packages', { exact: true }), 'Starter');
    await page.keyboard.press('Escape');
    await closeDropdowns(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page
      .getByTestId('package-up-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: 'Traffic 100' });
    await row.getByRole('cell', { name: '100 GB', exact: true }).waitFor();
    await row.getByRole('cell', { name: '5.00', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Starter', exact: true }).waitFor();
  });

  it('adds a discount after refusing a percent above 99, and a coupon', async () => {
    await packageNamed('Starter');
    const page = await open('/package/marketing', 'package-marketing-page');
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Add discount' }));
    await choose(page, dialog.getByLabel('Package', { exact: true }), 'Starter');
    await closeDropdowns(page);
    await choose(page, dialog.getByLabel('Term', { exact: true }), 'Year');
    await closeDropdowns(page);
    const percent = dialog.getByLabel('Percent off', { exact: true });
    await percent.fill('120');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A whole percent from 1 to 99').waitFor();
    await percent.fill('15');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const discount = page
      .getByTestId('discount-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: 'Starter' });
    await discount.getByRole('cell', { name: 'Year', exact: true }).waitFor();
    await discount.getByRole('cell', { name: '15%', exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Coupons', exact: true }).click();
    const coupon = await openDialog(page, page.getByRole('button', { name: 'Add coupon' }));
    await coupon.getByLabel('Code', { exact: true }).fill('spring26');
    await coupon.getByLabel('Value', { exact: true }).fill('10');
    await coupon.getByLabel('Minimum spend', { exact: true }).fill('50');
    await coupon.getByRole('button', { name: 'Save' }).click();
    const row = page.getByTestId('coupon-table').locator('tbody tr.ant-table-row').filter({ hasText: 'SPRING26' });
    await row.getByRole('cell', { name: '10.00 off', exact: true }).waitFor();
    await row.getByRole('cell', { name: '50.00', exact: true }).waitFor();
    await row.getByRole('cell', { name: '0 / 100', exact: true }).waitFor();
  });

  it('grants a package to a user picked by search, then extends it by 10 days from the batch bar', async () => {
    const user = await customer();
    await packageNamed('Starter');
    const page = await open('/package/sold', 'package-sold-page');
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Grant a package' }));
    const picker = dialog.getByLabel('User', { exact: true });
    await picker.click();
    await picker.fill(user.account);
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle(`${user.account} (#${user.id})`, { exact: true })
      .click();
    await closeDropdowns(page);
    await choose(page, dialog.getByLabel('Package', { exact: true }), 'Starter');
    await closeDropdowns(page);
    await dialog.getByRole('button', { name: 'Grant' }).click();

    const { baseUrl } = suite.master();
    const token = await admin();
    const granted = async () =>
      (await callApi<{ list: UserPackageRow[] }>(baseUrl, 'GET', `/v1/user-packages?user_id=${user.id}`, { token }))
        .list;
    await expect.poll(async () => (await granted()).length).toBe(1);
    const [before] = await granted();
    if (!before) throw new Error('no granted package');
    const row = page.getByTestId('sold-table').locator(`tbody tr[data-row-key="${before.id}"]`);
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('cell', { name: `${user.account} (#${user.id})` }).waitFor();

    await row.getByRole('checkbox').check();
    const bar = page.getByTestId('sold-batch-bar');
    await bar.getByLabel('Days', { exact: true }).fill('10');
    await page.getByTestId('sold-batch-extend').click();
    await confirmPopup(page, { question: 'Add 10 days to the end of 1 user packages?' });
    await expect
      .poll(async () => {
        const [after] = await granted();
        return after ? Date.parse(after.end_at) - Date.parse(before.end_at) : 0;
      })
      .toBe(10 * DAY_MS);
    await bar.waitFor({ state: 'detached' });

    await row.getByRole('checkbox').check();
    await page.getByTestId('sold-batch-suspended').click();
    await confirmPopup(page, { question: 'Suspend 1 user packages?' });
    await row.getByText('Suspended', { exact: true }).waitFor();
  });

  it('refuses to delete a package that was sold, with a popup, and keeps it listed', async () => {
    const user = await customer();
    const sold = await packageNamed('Sold out');
    const { baseUrl } = suite.master();
    await callApi(baseUrl, 'POST', '/v1/user-packages', {
      token: await admin(),
      body: { package_id: sold.id, user_id: user.id },
    });
    const page = await open('/package/basic', 'package-basic-page');
    await page.getByTestId('package-delete:Sold out').click();
    await confirmPopup(page, { question: 'Delete package Sold out?' });
    // The refusal's wording is the shared error text's; the package stays listed.
    await page.getByText(/ - conflict$/).waitFor();
    await page.getByTestId('package-table').getByRole('cell', { name: 'Sold out', exact: true }).waitFor();
  });

  it('shows the package pages in Chinese', async () => {
    const page = await open('/package/basic', 'package-basic-page', 'zh-CN');
    await page.getByRole('button', { name: '添加套餐' }).waitFor();
    await page.getByRole('tab', { name: '套餐分组' }).waitFor();
    await page.getByTestId('package-table').getByRole('columnheader', { name: '价格（月付 / 季付 / 年付）' }).waitFor();
    await page.goto(suite.url('/package/sold'));
    const endsBefore = page.getByTestId('sold-filters').getByLabel('到期早于');
    await endsBefore.waitFor();
    // antd's picker in Chinese, not the browser's mm/dd/yyyy field.
    await expect.poll(() => endsBefore.getAttribute('placeholder')).toBe('请选择日期');
    await page
      .getByText(/^共 \d+ 条$/)
      .first()
      .waitFor();
  });
});
