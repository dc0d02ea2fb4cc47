import { randomBytes } from 'node:crypto';
import { checkRedirectRegex, type Site, type SiteRedirects } from '@rampart/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { dashboardLocaleKeys, textFindings } from './support/page-check.ts';
import { saveSite } from './support/site-edit.ts';
import { useSuite } from './support/suite.ts';

/** What the contract's check says of an expression: the page and the master use its words. */
const regexRefusal = (expression: string): string => {
  try {
    checkRedirectRegex(expression);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${expression} passes the check`);
};

const TAB = { 'en-US': 'Redirects', 'zh-CN': '重定向' } as const;
type Locale = keyof typeof TAB;

const REDIRECT = {
  match: 'prefix',
  value: '/old/',
  action: 'redirect',
  status: 308,
  target: '/new/$1',
  keep_query: false,
} as const;
const REWRITE = {
  match: 'regex',
  value: '^/post/(\\d+)$',
  action: 'rewrite',
  status: 301,
  target: '/posts/$1',
  keep_query: true,
} as const;

describe('redirects on the site edit page', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'rhoda');
  const domain = `go-${randomBytes(4).toString('hex')}.example.com`;
  let site: Site | undefined;

  const storedSite = async () => {
    const { token } = await customer();
    return callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site?.id}`, { token });
  };

  /** The site's edit page on its redirects tab (the page itself only when given one). */
  const openRedirects = async (locale: Locale = 'en-US', open?: Page): Promise<Page> => {
    const { token } = await customer();
    site ??= await createSite(suite, token, domain);
    let page = open;
    if (!page) {
      page = await suite.openPage({ token, locale });
      await page.goto(suite.url(`/site/list/${site.id}`));
    }
    await page.getByTestId('site-edit-page').waitFor();
    await page.getByRole('tab', { name: TAB[locale] }).click();
    await page.getByTestId('redirects-section').waitFor();
    return page;
  };

  /** Clicks save and returns the master's answer to the PUT. */
  const save = (page: Page) => saveSite(page, site?.id);

  /** The message antd shows under a field: the input's description. */
  const fieldError = async (page: Page, field: Locator) => {
    const help = (await field.getAttribute('aria-describedby'))?.split(' ')[0];
    return help ? page.locator(`[id="${help}"]`).textContent() : '';
  };

  const rule = (page: Page, index: number) => page.getByTestId(`redirect-rule-${index}`);

  it('adds a redirect and a rewrite rule; they are there after a reload', async () => {
    const page = await openRedirects();
    await page.getByTestId('redirects-empty').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const first = rule(page, 0);
    await first.getByRole('textbox', { name: 'Path' }).fill('/old/');
    // The radio buttons' inputs are hidden under their labels: the label takes the click.
    await first.getByText('308', { exact: true }).click();
    await first.getByRole('switch', { name: 'Keep the query string' }).click();
    await first.getByRole('textbox', { name: 'Redirect to' }).fill('/new/$1');
    await first.getByText('$1 is the rest of the path after the prefix').waitFor();

    await page.getByRole('button', { name: 'Add rule' }).click();
    const second = rule(page, 1);
    await second.getByText('Regular expression', { exact: true }).click();
    await second.getByText('Rewrite', { exact: true }).click();
    await second.getByRole('textbox', { name: 'Expression' }).fill(REWRITE.value);
    await second.getByText('$1 is the expression’s group').waitFor();
    await second.getByRole('textbox', { name: 'Rewrite to' }).fill(REWRITE.target);
    expect(await second.getByText('308', { exact: true }).count()).toBe(0);
    expect((await save(page)).code).toBe(0);
    expect((await storedSite()).redirects).toEqual({ rules: [REDIRECT, REWRITE], host: 'off', trailing_slash: 'off' });

    await page.reload();
    await openRedirects('en-US', page);
    expect(await rule(page, 0).getByRole('textbox', { name: 'Path' }).inputValue()).toBe('/old/');
    expect(await rule(page, 0).getByRole('radio', { name: '308' }).isChecked()).toBe(true);
    expect(
      await rule(page, 0).getByRole('switch', { name: 'Keep the query string' }).getAttribute('aria-checked'),
    ).toBe('false');
    expect(await rule(page, 0).getByRole('textbox', { name: 'Redirect to' }).inputValue()).toBe('/new/$1');
    expect(await rule(page, 1).getByRole('radio', { name: 'Regular expression' }).isChecked()).toBe(true);
    expect(await rule(page, 1).getByRole('radio', { name: 'Rewrite' }).isChecked()).toBe(true);
    expect(await rule(page, 1).getByRole('textbox', { name: 'Expression' }).inputValue()).toBe(REWRITE.value);
    expect(await rule(page, 1).getByRole('textbox', { name: 'Rewrite to' }).inputValue()).toBe(REWRITE.target);
  });

  it('refuses a bad expression in the page, and the master refuses it too, naming the rule’s field', async () => {
    const page = await openRedirects();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const third = rule(page, 2);
    await third.getByText('Regular expression', { exact: true }).click();
    const expression = third.getByRole('textbox', { name: 'Expression' });
    await expression.fill('^/(a+)+$');
    await third.getByRole('textbox', { name: 'Redirect to' }).fill('/b');
    let puts = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts++;
    });
    await page.getByTestId('site-save').click();
    const reason = regexRefusal('^/(a+)+$');
    await expect.poll(() => fieldError(page, expression)).toBe(`This expression cannot be used: ${reason}`);
    expect(await expression.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toBe(0);

    const { token } = await customer();
    const stored = (await storedSite()).redirects as SiteRedirects;
    const bad = { ...stored, rules: [...stored.rules, { ...REWRITE, value: '^/(a+)+$', target: '/b' }] };
    await expect(
      callApi(suite.master().baseUrl, 'PUT', `/v1/sites/${site?.id}`, { token, body: { redirects: bad } }),
    ).rejects.toThrow(`invalid_param redirects/rules/2/value: ${reason}`);
  });

  it('shows the master’s refusal of a redirect loop at the rule’s target', async () => {
    const page = await openRedirects();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const third = rule(page, 2);
    await third.getByText('Exact path', { exact: true }).click();
    await third.getByRole('textbox', { name: 'Path' }).fill('/loop');
    const target = third.getByRole('textbox', { name: 'Redirect to' });
    await target.fill(`https://${domain}/loop`);
    const answer = await save(page);
    expect(answer.code).toBe('invalid_param');
    expect(answer.msg).toMatch(/^redirects\/rules\/2\/target: /);
    await expect.poll(() => fieldError(page, target)).toMatch(/the redirect would loop$/);
    expect(await target.getAttribute('aria-invalid')).toBe('true');
    expect((await storedSite()).redirects?.rules).toHaveLength(2);
  });

  it('shows the tab in Chinese, with no English left in it', async () => {
    const locale = await dashboardLocaleKeys();
    const page = await openRedirects('zh-CN');
    await page.getByText('工作方式').click();
    await page.getByTestId('redirects-help').getByText('示例').waitFor();
    await page.getByRole('button', { name: '添加规则' }).click();
    const third = rule(page, 2);
    await third.getByText('正则表达式', { exact: true }).click();
    await third.getByRole('textbox', { name: '表达式' }).waitFor();
    await rule(page, 1).getByRole('textbox', { name: '改写为' }).waitFor();
    await page.getByTestId('redirects-section').getByText('example.com → www.example.com', { exact: true }).waitFor();
    const where = { path: `/site/list/${site?.id}`, role: 'customer', language: 'zh-CN' as const, locale };
    expect(await textFindings(page, { ...where, data: [domain, 'rhoda'] })).toEqual([]);
  });
});
