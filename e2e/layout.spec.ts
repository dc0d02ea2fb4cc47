import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { bottomEdge, consoleReady } from './support/console.ts';
import { openInApp } from './support/navigate.ts';
import { SETTINGS_KEY, useSuite } from './support/suite.ts';

describe('console layout: breakpoints, header and the settings drawer', () => {
  const suite = useSuite();
  let token = '';
  const signedIn = async (options: Parameters<typeof suite.openPage>[0] = {}) => {
    const { baseUrl, adminPassword } = suite.master();
    token ||= await adminToken(baseUrl, adminPassword);
    const page = await suite.openPage({ token, ...options });
    await page.goto(suite.url('/admin-home'));
    await consoleReady(page);
    return page;
  };
  const siderWidth = async (page: Awaited<ReturnType<typeof signedIn>>) =>
    (await page.getByTestId('sider').boundingBox())?.width;

  it('is a desktop at 1280 px: sider 256 px, header 64 px, fullscreen toggle, breadcrumb', async () => {
    const page = await signedIn({ width: 1280 });
    await expect.poll(() => siderWidth(page)).toBe(256);
    expect((await page.getByTestId('header').boundingBox())?.height).toBe(64);
    await page.getByRole('button', { name: 'Full screen' }).waitFor();
    await page.getByTestId('breadcrumb').getByText('Service overview').waitFor();
    await page.getByRole('button', { name: 'Collapse the menu' }).click();
    await expect.poll(() => siderWidth(page)).toBe(80);
  });

  it('is a tablet at 800 px: the sider starts collapsed to 80 px and there is no fullscreen toggle', async () => {
    const page = await signedIn({ width: 800 });
    await expect.poll(() => siderWidth(page)).toBe(80);
    await page.getByRole('button', { name: 'Expand the menu' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Full screen' }).count()).toBe(0);
  });

  it('is a phone at 500 px: no sider, the menu opens in a drawer', async () => {
    const page = await signedIn({ width: 500 });
    await expect.poll(() => page.getByTestId('sider').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Full screen' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const drawer = page.getByTestId('mobile-menu');
    await drawer.getByRole('menuitem', { name: 'Front-end log' }).click();
    await page.waitForURL(suite.url('/log'));
    await drawer.waitFor({ state: 'hidden' });
  });

  it('hides the header when scrolling down past 300 px and shows it when scrolling up', async () => {
    const page = await signedIn({ settings: { headerHide: true } });
    // A long page to scroll through. Scroll anchoring off: the overview's figures arriving after the
    // first wheel grew the page above the view, and the browser moved scrollY with them (200 -> 1191,
    // seen once in a full run).
    await page.getByTestId('page-content').evaluate((content) => {
      document.documentElement.style.overflowAnchor = 'none';
      document.body.style.overflowAnchor = 'none';
      const spacer = document.createElement('div');
      spacer.style.height = '3000px';
      content.append(spacer);
    });
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(200);
    await expect.poll(() => bottomEdge(page, 'header')).toBe(64);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => bottomEdge(page, 'header')).toBeLessThanOrEqual(0);
    await page.mouse.wheel(0, -100);
    await expect.poll(() => bottomEdge(page, 'header')).toBe(64);
  });

  it('applies the drawer settings at once and restores them after a reload', async () => {
    const page = await signedIn();
    await page.getByRole('button', { name: 'Layout settings' }).click();
    const drawer = page.getByTestId('settings-drawer');
    await drawer.getByTestId('settings-warning').waitFor();
    expect((await drawer.boundingBox())?.width).toBe(280);

    await drawer.getByRole('radiogroup', { name: 'Sider theme' }).getByText('Dark').click();
    await drawer.getByRole('radiogroup', { name: 'Header theme' }).getByText('Primary').click();
    await expect.poll(() => drawer.getByRole('switch', { name: 'Tab icons' }).isDisabled()).toBe(true);
    await drawer.getByRole('switch', { name: 'Multi-tabs' }).click();
    await expect.poll(() => drawer.getByRole('switch', { name: 'Tab icons' }).isDisabled()).toBe(false);
    await page.getByTestId('tab-bar').waitFor();
    await drawer.getByRole('switch', { name: 'Fixed header' }).click();
    await expect.poll(() => drawer.getByRole('switch', { name: 'Hide header on scroll down' }).isDisabled()).toBe(true);
    await expect.poll(() => drawer.getByRole('switch', { name: 'Stick header' }).isDisabled()).toBe(true);
    await drawer.getByRole('switch', { name: 'Global breadcrumb' }).click();
    await expect.poll(() => drawer.getByRole('switch', { name: 'Breadcrumb icons' }).isDisabled()).toBe(true);
    await drawer.getByRole('switch', { name: 'Reload button' }).click();
    await drawer.getByRole('switch', { name: 'Watermark' }).click();

    const applied = async () => {
      await expect.poll(() => page.getByTestId('sider').getAttribute('data-theme')).toBe('dark');
      await expect.poll(() => page.getByTestId('header').getAttribute('data-theme')).toBe('primary');
      await expect.poll(() => page.getByTestId('header').getAttribute('data-fixed')).toBe('false');
      await expect.poll(() => page.getByTestId('breadcrumb').count()).toBe(0);
      await expect.poll(() => page.getByRole('button', { name: 'Reload this page' }).count()).toBe(0);
      await page.getByTestId('tab-bar').waitFor();
      await page.getByTestId('watermark').waitFor({ state: 'attached' });
    };
    await applied();
    const stored = await page.evaluate((key) => localStorage.getItem(key), SETTINGS_KEY);
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ layout: { siderTheme: 'dark', tabs: true }, watermark: true });
    expect((await page.context().cookies()).map((cookie) => cookie.name)).toContain(SETTINGS_KEY);

    await page.reload();
    await consoleReady(page);
    await applied();
  });

  it('moves the menu into the header in header-menu mode, without the breadcrumb', async () => {
    const page = await signedIn({ settings: { headerMenu: true } });
    await expect.poll(() => page.getByTestId('breadcrumb').count()).toBe(0);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('menuitem', { name: 'Sites' }).click();
    await page.waitForURL(suite.url('/site/list'));
    const sider = page.getByTestId('sider');
    await sider.getByRole('menuitem', { name: 'Site list' }).waitFor();
    await expect.poll(() => sider.getByRole('menuitem', { name: 'Nodes' }).count()).toBe(0);
    // A section without pages of its own has no sider.
    await sections.getByRole('menuitem', { name: 'Service overview' }).click();
    await page.waitForURL(suite.url('/admin-home'));
    await sider.waitFor({ state: 'detached' });
  });

  it('hides the breadcrumb when the header width minus 560 is not larger than its width', async () => {
    const page = await signedIn({ width: 1280, settings: { showBreadcrumbIcon: true } });
    await openInApp(page, '/site/cache-clean');
    const breadcrumb = page.getByTestId('breadcrumb');
    await breadcrumb.getByText('Refresh and pre-warm').waitFor();
    await expect.poll(() => breadcrumb.getAttribute('aria-hidden')).toBe('false');
    const width = (await breadcrumb.boundingBox())?.width ?? 0;
    // The header spans the window (it sticks above the sider); make it just too narrow.
    await page.setViewportSize({ width: Math.floor(560 + width), height: 800 });
    await expect.poll(() => breadcrumb.getAttribute('aria-hidden')).toBe('true');
    await page.setViewportSize({ width: Math.ceil(560 + width + 40), height: 800 });
    await expect.poll(() => breadcrumb.getAttribute('aria-hidden')).toBe('false');
  });

  it("switches antd's own texts with the language", async () => {
    const page = await signedIn({ locale: 'zh-CN' });
    await page.getByRole('button', { name: '布局设置' }).click();
    await page.getByTestId('settings-drawer').getByRole('button', { name: '关闭' }).waitFor();
  });
});
