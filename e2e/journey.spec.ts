import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../apps/agent/test/support/http.ts';
import { type Origin, startOrigin } from '../apps/agent/test/support/origin.ts';
import type { FakeWxpay } from '../apps/master/src/test/fake-wxpay.ts';
import { adminToken, callApi, latestCode } from './support/api.ts';
import { sitesNamed } from './support/edge.ts';
import { type EdgeNode, startEdgeNode } from './support/edge-node.ts';
import { acceptedNodeCredential, accessLine, shipAccessLines } from './support/ingest.ts';
import { journeyTexts } from './support/journey.ts';
import { dashboardLocaleKeys, type Language, type LocaleKeys, settle, textFindings } from './support/page-check.ts';
import { useSuite } from './support/suite.ts';
import { configureWxpay, payNewestPreorder, WXPAY_SETTINGS } from './support/wxpay.ts';

/** Config changes reach the edge in about a second; this leaves room for a loaded machine. */
const SERVED_WITHIN_MS = 30_000;
const CNAME_DOMAIN = 'cdn-journey.test';
const PACKAGE = 'Journey';
/** A step waits on pages and on the edge, each bounded; together they need more than the default minute on a busy machine. */
const STEP = { timeout: 180_000 };

/** Waits for `target`; when it does not come, says what the page showed instead. */
const until = async (page: Page, target: Locator, what: string) => {
  try {
    await target.waitFor();
  } catch (error) {
    const shown = await page
      .locator('body')
      .innerText()
      .catch(() => '');
    throw new Error(`${what} did not show on ${page.url()}; the page said:\n${shown.slice(0, 1500)}`, { cause: error });
  }
};

/** A button's name, whitespace aside: antd spaces out two-character Chinese labels (确定 shows as 确 定). */
const loose = (name: string) =>
  new RegExp([...name].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*'));

/**
 * The customer's business loop with nothing stood in for but the payment provider (its protocol
 * server runs locally): an operator who sells a package, a customer who registers, recharges by
 * WeChat Pay, buys the package, adds a site and points DNS at it; a real edge serves the site, its
 * traffic shows, the operator suspends the package and the edge answers the suspension page until
 * the package is reactivated. Once in each language, with two customers on the same master and edge.
 */
describe('the customer’s loop: register, recharge, buy, add a site, served, suspended, served again', () => {
  const suite = useSuite();
  let edge: EdgeNode;
  let origin: Origin;
  let wxpay: FakeWxpay;
  let locale: LocaleKeys;
  let logCredential = '';
  let logSeq = 0;
  const admin = () => adminToken(suite.master().baseUrl, suite.master().adminPassword);

  beforeAll(async () => {
    const { baseUrl } = suite.master();
    const token = await admin();
    origin = await startOrigin('journey-origin');
    wxpay = await configureWxpay(suite.master(), token);
    locale = await dashboardLocaleKeys();
    // The operator's policy said out loud: an inactive package's sites get the suspension page.
    await callApi(baseUrl, 'PUT', '/v1/configs/global-0-edge-enforcement', {
      token,
      body: { policy: 'suspend', throttle_kbps: 64 },
    });
    await callApi(baseUrl, 'POST', '/v1/cname-domains', { token, body: { domain: CNAME_DOMAIN, is_default: true } });
    await callApi(baseUrl, 'POST', '/v1/node-groups', {
      token,
      body: { name: 'main', host: 'edge', is_default: true },
    });
    const group = await callApi<{ id: number }>(baseUrl, 'POST', '/v1/package-groups', {
      token,
      body: { name: 'Web', sort: 1, description: '' },
    });
    await callApi(baseUrl, 'POST', '/v1/packages', {
      token,
      body: { name: PACKAGE, group_id: group.id, price_month: 3000, on_sale: true, max_sites: 3, max_domains: 5 },
    });
    edge = await startEdgeNode(suite.master());
    logCredential = await acceptedNodeCredential(suite, 'journey-logs');
  });
  afterAll(async () => {
    await edge?.stop();
    await origin?.close();
    if (wxpay) {
      await callApi(suite.master().baseUrl, 'DELETE', WXPAY_SETTINGS, { token: await admin() }).catch(() => undefined);
      await wxpay.close();
    }
  });

  /** Both journeys' customers: the admin's pages of one journey list the other's too. */
  const USERNAMES = {
    'en-US': `buyeren${randomBytes(2).toString('hex')}`,
    'zh-CN': `buyerzh${randomBytes(2).toString('hex')}`,
  } as const;
  const CUSTOMER_DATA = Object.values(USERNAMES).flatMap((name) => [
    name,
    `${name}@example.com`,
    `${name}.journey.test`,
  ]);

  describe.each(['en-US', 'zh-CN'] as const)('in %s', (language: Language) => {
    const text = journeyTexts(language);
    const username = USERNAMES[language];
    const email = `${username}@example.com`;
    const password = `${username}-Pass-1`;
    const domain = `${username}.journey.test`;
    const data = [...CUSTOMER_DATA, PACKAGE, 'Web', 'main', 'Administrator'];
    let page: Page;
    let token = '';
    const untranslated: string[] = [];

    /**
     * Opens a path in a fresh page of the customer (the suite closes pages after each test) and waits
     * until it has settled, noting untranslated text.
     */
    const visit = async (path: string) => {
      page = await suite.openPage({ token, locale: language });
      await page.goto(suite.url(path));
      await reviewed();
    };
    /** `waiting`: the page shows a spinner on purpose (a payment being waited for), so it never settles. */
    const reviewed = async (on = page, { waiting = false } = {}) => {
      if (!waiting) await settle(on);
      const found = await textFindings(on, {
        path: new URL(on.url()).pathname,
        role: username,
        language,
        locale,
        data,
      });
      untranslated.push(...found.map((finding) => `${finding.path}: ${finding.what}`));
    };
    /** The edge's answer for the site's Host. */
    const fromEdge = () => edge.request(domain);
    const served = async () => {
      const answer = await fromEdge();
      expect(answer.status, answer.body.slice(0, 200)).toBe(200);
      expect((JSON.parse(answer.body) as { origin: string }).origin).toBe('journey-origin');
    };
    // While a reload retires the old workers, both configs answer for a moment: a few answers in a row.
    const steadily = (check: () => Promise<void>) =>
      eventually(
        async () => {
          for (let i = 0; i < 5; i++) await check();
        },
        SERVED_WITHIN_MS,
        200,
      );

    it('registers on /register', STEP, async () => {
      const { baseUrl } = suite.master();
      page = await suite.openPage({ locale: language });
      await page.goto(suite.url('/register'));
      await settle(page, { publicPage: true });
      await page.getByLabel(text.register.username, { exact: true }).fill(username);
      await page.getByLabel(text.register.email, { exact: true }).fill(email);
      // The form asks for an email code only when the master can send mail.
      if ((await page.getByTestId('send-email-code').count()) > 0) {
        const sent = page.waitForResponse((response) => response.url().endsWith('/v1/email-captcha'));
        await page.getByTestId('send-email-code').click();
        expect(await (await sent).json()).toMatchObject({ code: 0 });
        const code = await eventually(async () => latestCode(baseUrl, await admin(), email), 15_000, 200);
        await page.getByLabel(text.register.emailCode).fill(code);
      }
      await page.getByLabel(text.register.password, { exact: true }).fill(password);
      await page.getByLabel(text.register.confirm).fill(password);
      await page.getByText(text.register.strong).waitFor();
      await page.getByLabel(text.register.agreement).check();
      await page.getByRole('button', { name: loose(text.register.submit) }).click();
      await page.waitForURL(suite.url('/home'));
      await page.getByText(text.register.success).waitFor();
      token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value ?? '';
      expect(token).not.toBe('');
      await reviewed();
    });

    it('follows Recharge from the buy page and recharges 50.00 by WeChat Pay', STEP, async () => {
      await visit('/user-package/buy');
      await page.getByTestId('recharge-link').first().click();
      await page.getByTestId('account-balance-page').waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/account/balance');
      await reviewed();
      const form = page.getByTestId('recharge-form');
      await form.getByLabel(text.recharge.amount, { exact: true }).fill('50');
      await form.getByText(text.recharge.wxpay, { exact: true }).click();
      await form.getByRole('button', { name: loose(text.recharge.submit) }).click();
      // The QR code is on screen once WeChat Pay answered the pre-order; the payer scans and pays.
      await until(page, page.getByTestId('payment-qr'), 'the WeChat Pay QR code');
      await reviewed(page, { waiting: true });
      await payNewestPreorder(suite.master(), wxpay, 5000);
      await until(page, page.getByTestId('payment-paid'), 'the payment');
      await expect.poll(() => page.getByTestId('balance-current').textContent()).toContain('50.00');
      await reviewed();
    });

    it('buys the package on /user-package/buy', STEP, async () => {
      // A recharge that failed above fails its own step; the admin credits the amount so the steps
      // after it still show what they can.
      const { baseUrl } = suite.master();
      const me = await callApi<{ id: number; balance: number }>(baseUrl, 'GET', '/v1/user', { token });
      if (me.balance < 5000) {
        await callApi(baseUrl, 'POST', `/v1/user/${me.id}/recharge`, {
          token: await admin(),
          body: { amount: 5000 - me.balance, description: 'journey stand-in for the recharge' },
        });
      }
      await visit('/user-package/buy');
      await page.getByTestId(`package-buy:${PACKAGE}`).click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByTestId('quote-amount')
        .filter({ hasText: /^30\.00$/ })
        .waitFor();
      await reviewed();
      await dialog.getByRole('button', { name: loose(text.buy.pay) }).click();
      await until(page, page.getByText(text.buy.paid).first(), 'the purchase message');
      await page.getByTestId('user-package-my-page').waitFor();
      await reviewed();
    });

    it('adds a site on /site/list and is shown where to point DNS', STEP, async () => {
      await visit('/site/list');
      await page.getByRole('button', { name: loose(text.site.add) }).click();
      const drawer = page.getByRole('dialog');
      await drawer.getByLabel(text.site.domains, { exact: true }).fill(domain);
      await drawer.getByLabel(text.site.address).fill('127.0.0.1');
      await drawer.getByLabel(text.site.port).fill(String(origin.port));
      await reviewed();
      await drawer.getByTestId('site-drawer-submit').click();
      const row = page.locator('tbody tr.ant-table-row').filter({ hasText: domain });
      await until(page, row, 'the new site');
      await expect.poll(() => row.getByTestId('site-cname').textContent()).toMatch(new RegExp(`\\.${CNAME_DOMAIN}$`));
      await reviewed();
      await row.getByRole('button', { name: loose(text.site.guide) }).click();
      const guide = page.getByRole('dialog', { name: text.site.guideTitle });
      await expect
        .poll(() => guide.getByTestId('dns-guide-target').textContent())
        .toMatch(new RegExp(`\\.${CNAME_DOMAIN}$`));
      await guide.getByTestId('dns-guide-check').click();
      await guide.getByTestId(`dns-guide:${domain}`).filter({ hasText: /\S/ }).waitFor();
      await reviewed();
    });

    it('is served by the edge for the site’s Host, and its traffic shows in /user-package/usage', STEP, async () => {
      await steadily(served);
      const [site] = await sitesNamed(suite, token, domain);
      if (!site) throw new Error(`no site ${domain}`);
      // The agent ships its access log on its own schedule; these lines stand for the requests above.
      await shipAccessLines(suite, logCredential, ++logSeq, [
        accessLine({ site_id: site.id, host: domain, bytes_sent: 3_000_000 }),
      ]);
      await visit('/user-package/usage');
      const sites = page.getByTestId('usage-sites');
      await until(page, sites.locator('tbody tr').filter({ hasText: domain }), 'the site’s usage');
      await expect
        .poll(() => sites.locator('tbody tr').filter({ hasText: domain }).textContent())
        .toMatch(/3(\.0)? ?MB/);
      await reviewed();
    });

    it(
      'is suspended when the operator suspends the package on /package/sold, and served again once reactivated',
      STEP,
      async () => {
        const adminPage = await suite.openPage({ token: await admin(), locale: language });
        await adminPage.goto(suite.url('/package/sold'));
        await reviewed(adminPage);
        const row = adminPage.getByTestId('sold-table').locator('tbody tr.ant-table-row').filter({ hasText: username });
        await row.getByRole('checkbox').check();
        await adminPage.getByTestId('sold-batch-suspended').click();
        await adminPage
          .getByRole('tooltip')
          .getByRole('button', { name: loose(text.sold.confirm) })
          .click();
        await row.getByText(text.sold.suspended, { exact: true }).waitFor();
        await steadily(async () => {
          const answer = await fromEdge();
          expect(answer.status, answer.body.slice(0, 200)).toBe(503);
          expect(answer.body).toMatch(/suspended by the provider|暂停/);
        });

        await row.getByRole('checkbox').check();
        await adminPage.getByTestId('sold-batch-active').click();
        await adminPage
          .getByRole('tooltip')
          .getByRole('button', { name: loose(text.sold.confirm) })
          .click();
        await row.getByText(text.sold.active, { exact: true }).waitFor();
        await steadily(served);
      },
    );

    it('shows no untranslated text on the pages it visited', () => {
      expect(untranslated, untranslated.join('\n')).toEqual([]);
    });
  });
});
