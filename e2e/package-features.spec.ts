import { DEFAULT_SITE_HOTLINK } from '@rampart/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi, type RegisteredUser, registerUser } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { useSuite } from './support/suite.ts';

describe('site features per package: listed where a package is bought and held, respected on the site page', () => {
  const suite = useSuite();
  let ready: Promise<{ customer: RegisteredUser; siteId: number; packageId: number }> | undefined;

  const admin = () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  /** A package without hotlink protection, bought by a customer who has one site in it. */
  const setUp = async () => {
    const { baseUrl } = suite.master();
    const token = await admin();
    const group = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/package-groups', {
      token,
      body: { name: 'Web' },
    });
    const pkg = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/packages', {
      token,
      body: {
        name: 'NoHotlink',
        group_id: group.id,
        price_month: 100,
        on_sale: true,
        max_sites: 2,
        max_domains: 2,
        hotlink: false,
      },
    });
    const customer = await registerUser(baseUrl, token, 'fiona');
    await callApi(baseUrl, 'POST', `/v1/user/${customer.id}/recharge`, { token, body: { amount: 10_000 } });
    await callApi(baseUrl, 'POST', '/v1/user-packages', { token: customer.token, body: { package_id: pkg.id } });
    const site = await createSite(suite, customer.token, 'fiona.example.com');
    return { customer, siteId: site.id, packageId: pkg.id };
  };
  const prepared = () => {
    ready ??= setUp();
    return ready;
  };
  const allowed = (page: Page, testId: string) => page.getByTestId(testId).getAttribute('data-allowed');

  it('lists every feature on the buy page, in English and in Chinese, and in My packages', async () => {
    const { customer } = await prepared();
    for (const [locale, hotlink, no] of [
      ['en-US', 'Hotlink protection', 'No'],
      ['zh-CN', '防盗链', '不支持'],
    ] as const) {
      const page = await suite.openPage({ token: customer.token, locale });
      await page.goto(suite.url('/user-package/buy'));
      const card = page.getByTestId('package-card:NoHotlink');
      await card.waitFor();
      await card.getByText(hotlink).waitFor();
      expect(await allowed(page, 'package-feature:NoHotlink:hotlink')).toBe('false');
      expect(await page.getByTestId('package-feature:NoHotlink:hotlink').textContent()).toBe(no);
      expect(await allowed(page, 'package-feature:NoHotlink:url_auth')).toBe('true');
    }
    const page = await suite.openPage({ token: customer.token });
    await page.goto(suite.url('/user-package/my'));
    await page.getByTestId('user-package-features:NoHotlink:hotlink').waitFor();
    expect(await allowed(page, 'user-package-features:NoHotlink:hotlink')).toBe('false');
    expect(await allowed(page, 'user-package-features:NoHotlink:https')).toBe('true');
  });

  it('keeps the hotlink switch off on the site page with a notice, until the admin allows it in the package form', async () => {
    const { customer, siteId } = await prepared();
    const page = await suite.openPage({ token: customer.token });
    await page.goto(suite.url(`/site/list/${siteId}`));
    await page.getByTestId('site-edit-page').waitFor();
    await page.getByRole('tab', { name: 'Hotlink protection' }).click();
    const notice = page.getByTestId('package-feature-notice:hotlink');
    await notice.getByText('Your package NoHotlink does not include Hotlink protection', { exact: false }).waitFor();
    const toggle = page.getByRole('switch', { name: 'Hotlink protection' });
    expect(await toggle.isDisabled()).toBe(true);
    // The master refuses it as well, naming the field.
    const refused = await fetch(`${suite.master().baseUrl}/v1/sites/${siteId}`, {
      method: 'PUT',
      headers: { 'Access-Token': customer.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ hotlink: { ...DEFAULT_SITE_HOTLINK, enabled: true } }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'package_feature', params: { field: 'hotlink' } });

    const operator = await suite.openPage({ token: await admin() });
    await operator.goto(suite.url('/package/basic'));
    const summary = operator.getByTestId('package-features:NoHotlink');
    await summary.waitFor();
    expect(await summary.getAttribute('data-excluded')).toBe('hotlink');
    expect(await summary.textContent()).toBe('Features: 7/8');
    await operator.getByTestId('package-edit:NoHotlink').click();
    const form = operator.getByRole('dialog');
    await form.getByRole('switch', { name: 'Hotlink protection' }).click();
    const saved = operator.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/v1/packages/'),
    );
    await form.getByTestId('package-submit').click();
    expect((await (await saved).json()).data).toMatchObject({ hotlink: true });

    await page.reload();
    await page.getByTestId('site-edit-page').waitFor();
    await page.getByRole('tab', { name: 'Hotlink protection' }).click();
    await page.getByTestId('hotlink-section').waitFor();
    await expect.poll(() => page.getByRole('switch', { name: 'Hotlink protection' }).isDisabled()).toBe(false);
    expect(await page.getByTestId('package-feature-notice:hotlink').count()).toBe(0);
  });
});
