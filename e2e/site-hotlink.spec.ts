import { randomBytes } from 'node:crypto';
import { DEFAULT_SITE_HOTLINK, type Site } from '@rampart/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { saveSite } from './support/site-edit.ts';
import { useSuite } from './support/suite.ts';

describe('hotlink protection on the site edit page', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'hollis');
  const domain = `img-${randomBytes(4).toString('hex')}.example.com`;
  let site: Site | undefined;

  /** The site's edit page on its hotlink section. */
  const openHotlink = async (locale?: string): Promise<Page> => {
    const { token } = await customer();
    site ??= await createSite(suite, token, domain);
    const page = await suite.openPage({ token, locale });
    await page.goto(suite.url(`/site/list/${site.id}`));
    await page.getByTestId('site-edit-page').waitFor();
    await page.getByRole('tab', { name: locale === 'zh-CN' ? '防盗链' : 'Hotlink protection' }).click();
    await page.getByTestId('hotlink-section').waitFor();
    return page;
  };

  /** Clicks save and returns the master's answer to the PUT. */
  const save = (page: Page) => saveSite(page, site?.id);

  it('turns it on with allowed and denied hosts and a file type; the values are there after a reload', async () => {
    const page = await openHotlink();
    await page.getByRole('switch', { name: 'Hotlink protection' }).click();
    await page
      .getByRole('textbox', { name: 'Allowed referer hosts' })
      .fill('partner.example.org\n*.Friends.example.net');
    await page.getByRole('textbox', { name: 'Denied referer hosts' }).fill('leech.example.com');
    await page.getByRole('switch', { name: 'Allow requests without a Referer' }).click();
    const types = page.getByRole('combobox', { name: 'File types' });
    await types.fill('m4a');
    await types.press('Enter');
    expect((await save(page)).code).toBe(0);

    const { token } = await customer();
    const stored = await callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site?.id}`, { token });
    expect(stored.hotlink).toEqual({
      ...DEFAULT_SITE_HOTLINK,
      enabled: true,
      allow: ['partner.example.org', '*.friends.example.net'],
      deny: ['leech.example.com'],
      allow_empty: false,
      extensions: [...DEFAULT_SITE_HOTLINK.extensions, 'm4a'],
    });

    await page.reload();
    await page.getByRole('tab', { name: 'Hotlink protection' }).click();
    expect(await page.getByRole('switch', { name: 'Hotlink protection' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('textbox', { name: 'Allowed referer hosts' }).inputValue()).toBe(
      'partner.example.org\n*.friends.example.net',
    );
    expect(await page.getByRole('textbox', { name: 'Denied referer hosts' }).inputValue()).toBe('leech.example.com');
    expect(
      await page.getByRole('switch', { name: 'Allow requests without a Referer' }).getAttribute('aria-checked'),
    ).toBe('false');
    await page.getByTestId('hotlink-section').getByTitle('m4a').waitFor();
  });

  it('shows the master’s refusal of a redirect to one of the site’s own protected files at the URL', async () => {
    const page = await openHotlink();
    // The radio buttons' inputs are hidden under their labels: the label takes the click.
    await page.getByTestId('hotlink-section').getByText('A redirect (302)').click();
    const url = page.getByRole('textbox', { name: 'Redirect URL' });
    await url.fill(`https://${domain}/x.png`);
    const answer = await save(page);
    expect(answer.code).toBe('invalid_param');
    expect(answer.msg).toMatch(/^hotlink\/redirect_url: /);
    // The error is the field's description: antd points the input at it.
    await expect
      .poll(async () => {
        const help = (await url.getAttribute('aria-describedby'))?.split(' ')[0];
        return help ? page.locator(`[id="${help}"]`).textContent() : '';
      })
      .toMatch(/the redirect would loop/);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    const { token } = await customer();
    const stored = await callApi<Site>(suite.master().baseUrl, 'GET', `/v1/sites/${site?.id}`, { token });
    expect(stored.hotlink?.action).toBe('forbid');
  });

  it('shows the section in Chinese', async () => {
    const page = await openHotlink('zh-CN');
    await page.getByRole('textbox', { name: '允许的来源域名' }).waitFor();
    await page.getByTestId('hotlink-section').getByText('跳转 (302)').waitFor();
  });
});
