// @vitest-environment jsdom
import { PACKAGE_FEATURES, type SitePackageFeatures } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../shared/testing/dom.ts';
import { control, ok, TEST_SITE as SITE, save, siteFormHarness } from '../sites/edit/siteFormHarness.tsx';

const ALL = Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, true])) as SitePackageFeatures['features'];
const LIMITED: SitePackageFeatures = {
  limited: true,
  user_package_id: 9,
  package_name: 'Lite',
  features: { ...ALL, hotlink: false, https: false },
  in_use: [],
  beyond: [],
};

describe('the site page under a package without some features', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);
  const open = (features: SitePackageFeatures) =>
    harness.open((body) => ok({ ...SITE, ...body }), SITE, { '/v1/sites/7/package-features': features });

  it('shows the notice on the hotlink tab, keeps its switch off, and still saves the other settings', async () => {
    const { container, puts } = open(LIMITED);
    const notice = await waitFor(() => container.querySelector('[data-testid="package-feature-notice:hotlink"]'));
    expect(notice.textContent).toContain('Your package Lite does not include Hotlink protection');
    const hotlink = await control<HTMLButtonElement>(container, 'hotlink_enabled');
    expect(hotlink.disabled).toBe(true);
    hotlink.click();
    expect(hotlink.getAttribute('aria-checked')).toBe('false');
    const https = await control<HTMLButtonElement>(container, 'https_listen');
    expect(https.disabled).toBe(true);
    expect(container.querySelector('[data-testid="package-feature-notice:https"]')).not.toBeNull();
    // Features the package includes stay as they were.
    expect((await control<HTMLButtonElement>(container, 'url_auth_enabled')).disabled).toBe(false);
    expect(container.querySelector('[data-testid="package-feature-notice:url_auth"]')).toBeNull();
    (await control<HTMLButtonElement>(container, 'gzip')).click();
    save(container);
    await waitFor(() => puts.length > 0);
    expect(puts[0]).toEqual({ gzip: false });
  });
});
