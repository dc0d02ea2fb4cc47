import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeWxpay } from '../apps/master/src/test/fake-wxpay.ts';
import { adminToken, callApi, type RegisteredUser, registerUser } from './support/api.ts';
import { openInApp } from './support/navigate.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { useSuite } from './support/suite.ts';
import { saveWxpaySettings, WXPAY_SETTINGS } from './support/wxpay.ts';

describe('finance: balance adjustments, orders, CSV export, the user’s orders and an online recharge', () => {
  const suite = useSuite();
  let customer: RegisteredUser | undefined;
  const admin = () => adminToken(suite.master().baseUrl, suite.master().adminPassword);
  /** One customer for every test, registered on first use. */
  const fiona = async () => {
    customer ??= await registerUser(suite.master().baseUrl, await admin(), 'fiona');
    return customer;
  };

  /** Searches the user picker for an account and picks it. */
  const pickUser = async (page: Page, picker: Locator, user: RegisteredUser) => {
    await picker.click();
    await picker.fill(user.account);
    // antd gives each option its label as the title; the chosen value shows the same title, outside the list.
    const option = page.locator('.ant-select-dropdown:visible').getByTitle(`${user.account} (#${user.id})`, {
      exact: true,
    });
    await option.click();
    await expect.poll(() => option.count()).toBe(0);
  };

  /** The adjust-balance dialog filled in and sent, returning the confirmation dialog. */
  const adjust = async (page: Page, user: RegisteredUser, amount: string, description: string) => {
    const dialog = await openDialog(page, page.getByRole('button', { name: 'Adjust balance' }));
    await pickUser(page, dialog.getByRole('combobox', { name: 'User' }), user);
    await dialog.getByLabel('Amount', { exact: true }).fill(amount);
    await dialog.getByLabel('Description', { exact: true }).fill(description);
    await dialog.getByRole('button', { name: 'Adjust' }).click();
    const confirm = page.getByRole('dialog').filter({ has: page.getByTestId('adjust-confirm') });
    await confirm.waitFor();
    return { dialog, confirm };
  };

  it('lets an admin credit a balance and refuses a debit below zero, in the page’s words', async () => {
    const user = await fiona();
    const page = await suite.openPage({ token: await admin() });
    await page.goto(suite.url('/finance/recharge'));
    await page.getByTestId('finance-recharge-page').waitFor();

    // The form explains what it needs before anything is sent.
    const empty = await openDialog(page, page.getByRole('button', { name: 'Adjust balance' }));
    await empty.getByLabel('Amount', { exact: true }).fill('0');
    await empty.getByRole('button', { name: 'Adjust' }).click();
    await empty.getByText('Choose a user').waitFor();
    await empty.getByText('An amount with at most two decimals, not 0').waitFor();
    await empty.getByRole('button', { name: 'Cancel' }).click();

    const credit = await adjust(page, user, '12.34', '=HYPERLINK("x")');
    await expect
      .poll(() => credit.confirm.getByTestId('adjust-confirm').textContent())
      .toBe(`Add 12.34 to the balance of fiona (#${user.id})?`);
    await credit.confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Balance of fiona is now 12.34').waitFor();
    const table = page.getByTestId('finance-recharge-table');
    const row = table.locator('tbody tr').filter({ hasText: 'fiona' });
    await row.getByText('+12.34', { exact: true }).waitFor();

    const debit = await adjust(page, user, '-100', 'too much');
    await expect
      .poll(() => debit.confirm.getByTestId('adjust-confirm').textContent())
      .toBe(`Take 100.00 from the balance of fiona (#${user.id})?`);
    await debit.confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The balance 12.34 does not cover 100.00: 87.66 short - balance_insufficient').waitFor();
    // The form is back, as it was, for another try.
    await debit.dialog.getByLabel('Amount', { exact: true }).waitFor();
    await expect.poll(() => debit.dialog.getByLabel('Amount', { exact: true }).inputValue()).toBe('-100');

    const { list } = await callApi<{ list: { amount: number; balance_after: number }[] }>(
      suite.master().baseUrl,
      'GET',
      `/v1/orders?user_id=${user.id}`,
      { token: await admin() },
    );
    expect(list).toEqual([expect.objectContaining({ amount: 1234, balance_after: 1234 })]);
  });

  it('shows every user’s orders with the totals of the filter and exports them as CSV', async () => {
    const user = await fiona();
    const token = await admin();
    const { baseUrl } = suite.master();
    await callApi(baseUrl, 'POST', `/v1/user/${user.id}/recharge`, {
      token,
      body: { amount: -234, description: 'fee' },
    });
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/finance/order'));
    await page.getByTestId('finance-order-page').waitFor();
    await pickUser(page, page.getByTestId('order-filters').getByRole('combobox', { name: 'User' }), user);
    const table = page.getByTestId('finance-order-table');
    await page.getByTestId('finance-order-page').getByText('2 items').waitFor();
    await table.getByText('-2.34', { exact: true }).waitFor();
    await table.locator('tbody tr').filter({ hasText: 'fee' }).getByText('10.00', { exact: true }).waitFor();
    const totals = page.getByTestId('order-totals');
    await expect.poll(() => totals.getByTestId('order-totals-credit').textContent()).toContain('12.34');
    await expect.poll(() => totals.getByTestId('order-totals-debit').textContent()).toContain('2.34');
    await expect.poll(() => totals.getByTestId('order-totals-net').textContent()).toContain('10.00');

    const download = page.waitForEvent('download');
    await page.getByTestId('order-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile((await file.path()) ?? '', 'utf8');
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('ID,User,Type,Channel,State,Amount,Balance after,Description,Order number,Created,Paid at');
    expect(lines).toHaveLength(3);
    // Newest first: the fee, its negative amount kept from running as a formula, then the credit.
    expect(lines[1]).toContain(",fiona,Adjustment,Administrator,Paid,'-2.34,10.00,fee,");
    expect(lines[2]).toContain(`,fiona,Recharge,Administrator,Paid,12.34,12.34,"'=HYPERLINK(""x"")",`);
  });

  it('shows the user their orders in their words, and no recharge form while no channel is set up', async () => {
    const user = await fiona();
    const page = await suite.openPage({ token: user.token });
    const opened: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/orders') opened.push(request.url());
    });
    await page.goto(suite.url('/account/order'));
    const table = page.getByTestId('account-order-table');
    const credit = table.locator('tbody tr').filter({ hasText: '+12.34' });
    await credit.waitFor();
    const drawer = await openDialog(page, credit.getByRole('button', { name: 'Details' }));
    await drawer.getByTestId('order-details').getByText('=HYPERLINK("x")').waitFor();
    await drawer.getByRole('button', { name: 'Close', exact: true }).click();

    await openInApp(page, '/account/balance');
    await expect.poll(() => page.getByTestId('balance-current').textContent()).toContain('10.00');
    await page
      .getByTestId('recharge-no-channel')
      .getByText('Online payment is not set up. Contact the operator to add credit to your account.')
      .waitFor();
    expect(await page.getByTestId('recharge-form').count()).toBe(0);
    await page.getByTestId('balance-recharges').locator('tbody tr').filter({ hasText: '+12.34' }).waitFor();

    const zh = await suite.openPage({ token: user.token, locale: 'zh-CN' });
    await zh.goto(suite.url('/account/balance'));
    await zh.getByTestId('recharge-no-channel').getByText('尚未开通在线支付。请联系运营方为您的账户充值。').waitFor();
    expect(await zh.getByTestId('recharge-form').count()).toBe(0);
    expect(opened).toEqual([]);
  });

  it('offers only the channel that is set up, leads back to where the recharge began, and words a refusal in Chinese', async () => {
    const { baseUrl } = suite.master();
    const wxpay = await startFakeWxpay();
    try {
      await saveWxpaySettings(suite.master(), await admin(), wxpay);
      const user = await registerUser(baseUrl, await admin(), 'gwen');
      const page = await suite.openPage({ token: user.token });
      await page.goto(suite.url('/account/user'));
      await page.getByTestId('profile-balance').filter({ hasText: '0.00' }).waitFor();
      await page.getByTestId('recharge-link').click();
      await page.waitForURL(/\/account\/balance\?back=%2Faccount%2Fuser$/);
      const form = page.getByTestId('recharge-form');
      await form.getByText('WeChat Pay', { exact: true }).waitFor();
      expect(await form.getByText('Alipay', { exact: true }).count()).toBe(0);
      await form.getByLabel('Amount', { exact: true }).fill('5.5');
      await form.getByRole('button', { name: 'Recharge' }).click();
      const panel = page.getByTestId('payment-panel');
      await panel.getByText(/^Recharge order \w{32} is waiting for payment$/).waitFor();
      await panel.getByTestId('payment-qr').waitFor();
      const recharges = page.getByTestId('balance-recharges');
      await recharges
        .locator('tbody tr')
        .filter({ hasText: '+5.50' })
        .getByText('Online recharge by WeChat Pay')
        .waitFor();
      const pending = recharges.locator('tbody tr').filter({ hasText: 'Pending' });
      await pending.getByRole('button', { name: 'Close' }).click();
      await confirmPopup(page, { question: 'It will never be credited' });
      await recharges.locator('tbody tr').filter({ hasText: '+5.50' }).getByText('Closed').waitFor();
      await page.getByTestId('recharge-back').click();
      await page.getByTestId('account-user-page').waitFor();

      // The channel goes away while a zh-CN page still offers it: the refusal is worded in Chinese.
      const zh = await suite.openPage({ token: user.token, locale: 'zh-CN' });
      await zh.goto(suite.url('/account/balance'));
      const zhForm = zh.getByTestId('recharge-form');
      await zhForm.getByText('微信支付', { exact: true }).waitFor();
      await callApi(baseUrl, 'DELETE', WXPAY_SETTINGS, { token: await admin() });
      await zhForm.getByLabel('金额', { exact: true }).fill('3');
      await zhForm.getByRole('button', { name: /^充\s?值$/ }).click();
      await zh.getByText('系统未配置微信支付 - channel_unavailable').waitFor();
      expect(await zh.getByText('WeChat Pay is not enabled', { exact: false }).count()).toBe(0);
    } finally {
      await callApi(baseUrl, 'DELETE', WXPAY_SETTINGS, { token: await admin() });
      await wxpay.close();
    }
  });

  it('counts recharges per day and channel, in Chinese', async () => {
    await fiona();
    const page = await suite.openPage({ token: await admin(), locale: 'zh-CN' });
    await page.goto(suite.url('/finance/recharge-count'));
    await page.getByTestId('recharge-count-page').waitFor();
    await page.getByRole('img', { name: '每日各渠道充值' }).waitFor();
    const table = page.getByTestId('recharge-count-table');
    await table.getByRole('columnheader', { name: '管理员' }).waitFor();
    const totals = table.getByTestId('recharge-count-totals');
    await totals.getByText('合计').waitFor();
    await expect.poll(() => totals.textContent()).toContain('12.34');
    // The picker shows the days in use, the same as the text beside it.
    const shown = (await page.getByTestId('recharge-count-range').textContent()) ?? '';
    const [first, last] = shown.split(' – ');
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => page.getByPlaceholder('开始日期').inputValue()).toBe(first);
    await expect.poll(() => page.getByPlaceholder('结束日期').inputValue()).toBe(last);
  });

  // Last: it pays a recharge online, which the counts above do not expect.
  it('refunds part of a paid WeChat Pay recharge from /finance/recharge after a confirmation', async () => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const wxpay = await startFakeWxpay();
    try {
      await saveWxpaySettings(suite.master(), token, wxpay);
      const user = await registerUser(baseUrl, token, 'rory');
      const order = await callApi<{ id: number; out_trade_no: string }>(baseUrl, 'POST', '/v1/orders', {
        token: user.token,
        body: { amount: 2_000, channel: 'wxpay' },
      });
      await callApi(baseUrl, 'POST', '/v1/wxpay/preorder', { token: user.token, body: { order_id: order.id } });
      const notification = wxpay.notification({
        out_trade_no: order.out_trade_no,
        total: 2_000,
        transaction_id: `4200000${order.id}77`,
      });
      const paid = await fetch(`${baseUrl}/v1/wxpay/notify`, {
        method: 'POST',
        headers: notification.headers,
        body: notification.body,
      });
      expect(await paid.json()).toEqual({ code: 'SUCCESS' });

      const page = await suite.openPage({ token });
      await page.goto(suite.url('/finance/recharge'));
      const dialog = await openDialog(page, page.getByTestId(`order-refund:${order.id}`));
      await dialog.getByLabel('Amount to refund', { exact: true }).fill('7.5');
      await dialog.getByLabel('Reason', { exact: true }).fill('asked by the customer');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      const confirm = page.getByRole('dialog').filter({ has: page.getByTestId('refund-confirm') });
      await confirm
        .getByText(/^Refund 7\.50 to the payer by WeChat Pay, taken from the balance of .+ \(#\d+\)\?$/)
        .waitFor();
      expect(wxpay.refunds).toEqual([]);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Refunded 7.50; the balance is now 12.50').waitFor();
      expect(wxpay.refunds).toEqual([
        expect.objectContaining({ out_trade_no: order.out_trade_no, refund: 750, total: 2_000 }),
      ]);
      const balance = await callApi<{ balance: number }>(baseUrl, 'GET', '/v1/user', { token: user.token });
      expect(balance.balance).toBe(1_250);
    } finally {
      await callApi(baseUrl, 'DELETE', WXPAY_SETTINGS, { token });
      await wxpay.close();
    }
  });
});
