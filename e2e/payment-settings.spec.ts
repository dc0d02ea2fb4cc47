import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi, registerUser } from './support/api.ts';
import { useSuite } from './support/suite.ts';

const pemPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

describe('/sys/setting payment tab', () => {
  const suite = useSuite();

  it('names a short API v3 key at its field, saves WeChat Pay, never shows its secrets again, and resets it', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const token = await adminToken(baseUrl, adminPassword);
    const customer = await registerUser(baseUrl, token, 'xena');
    /** The recharge part of a customer's balance page: the channels offered, or the text without any. */
    const customerBalance = async () => {
      const balance = await suite.openPage({ token: customer.token });
      await balance.goto(suite.url('/account/balance'));
      await balance.getByTestId('account-balance-page').waitFor();
      return balance;
    };
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/sys/setting'));
    const settings = page.getByTestId('sys-setting-page');
    await settings.getByRole('tab', { name: 'Payment' }).click();
    const wxpay = page.getByTestId('payment-wxpay');
    const field = (label: string) => wxpay.getByLabel(label, { exact: true });
    await field('Merchant ID').waitFor();

    const merchant = pemPair();
    const platform = pemPair();
    const apiV3Key = 'e2eV3key0123456789abcdefghijklmn';
    await field('Enabled').click();
    await field('Merchant ID').fill('1900000109');
    await field('App ID').fill('wx1234567890abcdef');
    await field('Merchant certificate serial number').fill('5157F09EFDC096DE15EBE81A47057A7232F1B8E1');
    await field('Merchant API private key').fill(merchant.privateKey);
    await field('API v3 key').fill(apiV3Key.slice(1));
    await field('Platform public key').fill(platform.publicKey);
    await field('Platform public key ID').fill('PUB_KEY_ID_0114232134912410000000000000');
    await field('Notify base URL').fill('https://panel.example.com/');
    await expect.poll(() => field('Notify URL').inputValue()).toBe('https://panel.example.com/v1/wxpay/notify');
    await wxpay.getByRole('button', { name: 'Save' }).click();
    await wxpay.getByText('must be exactly 32 characters, not 31').waitFor();

    await field('API v3 key').fill(apiV3Key);
    await wxpay.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Payment settings saved').waitFor();
    // Saved and enabled: the customer's recharge offers WeChat Pay, and only it.
    const offered = await customerBalance();
    const form = offered.getByTestId('recharge-form');
    await form.getByText('WeChat Pay', { exact: true }).waitFor();
    expect(await form.getByText('Alipay', { exact: true }).count()).toBe(0);

    await page.reload();
    await settings.getByRole('tab', { name: 'Payment' }).click();
    await field('Merchant ID').waitFor();
    await expect.poll(() => field('Merchant ID').inputValue()).toBe('1900000109');
    await expect.poll(() => field('API v3 key').inputValue()).toBe('******');
    await expect.poll(() => field('Merchant API private key').inputValue()).toBe('******');
    await expect.poll(() => wxpay.getByRole('button', { name: 'Replace' }).count()).toBe(2);
    await expect.poll(() => wxpay.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    const html = await page.content();
    expect(html).not.toContain(apiV3Key);
    expect(html).not.toContain(merchant.privateKey.split('\n')[1]);

    const saved = await callApi<Record<string, unknown>>(baseUrl, 'GET', '/v1/configs/global-0-payment-wxpay', {
      token,
    });
    expect(saved).toMatchObject({ enabled: true, api_v3_key: '******', merchant_private_key: '******' });

    await wxpay.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Payment settings reset').waitFor();
    await expect.poll(() => field('Merchant ID').inputValue()).toBe('');
    await expect.poll(() => wxpay.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => wxpay.getByRole('button', { name: 'Replace' }).count()).toBe(0);
    // Reset: no channel is left, so the customer is told how to get credit and gets no form.
    const none = await customerBalance();
    await none
      .getByTestId('recharge-no-channel')
      .getByText('Online payment is not set up. Contact the operator to add credit to your account.')
      .waitFor();
    expect(await none.getByTestId('recharge-form').count()).toBe(0);
  });
});
