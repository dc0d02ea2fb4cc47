import { describe, expect, it } from 'vitest';
import { consoleReady } from './support/console.ts';
import { createCustomer, exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

const NOTICE = 'Your account needs an active package before it can add sites or forwarding rules.';

describe('sites and streams: a customer without a package is sent to buy one', () => {
  const suite = useSuite();
  const exempt = exemptCustomerOf(suite, 'ezra');
  const fresh = (username: string) => createCustomer(suite, username);

  it('explains on both lists that a package is needed, and the add buttons lead to the buy page', async () => {
    const { token } = await fresh('nora');
    const page = await suite.openPage({ token });
    for (const [path, add] of [
      ['/site/list', 'Add site'],
      ['/stream/list', 'Add forwarding'],
    ] as const) {
      await page.goto(suite.url(path));
      await consoleReady(page);
      const notice = page.getByTestId('package-required');
      await notice.getByText(NOTICE).waitFor();
      await page.getByRole('button', { name: add }).click();
      await page.getByTestId('user-package-buy-page').waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/user-package/buy');
      expect(await page.getByRole('dialog').count()).toBe(0);
    }
    await page.goto(suite.url('/site/list'));
    await page.getByTestId('package-required').getByRole('button', { name: 'Buy a package' }).click();
    await page.getByTestId('user-package-buy-page').waitFor();
  });

  it('shows the same notice instead of an error when the master refuses the new site', async () => {
    const { token } = await fresh('otto');
    const page = await suite.openPage({ token });
    // The look-up says nothing is needed (a package that ended since): only the create call knows.
    await page.route('**/v1/user-packages/standing', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 0,
          msg: '',
          data: { required: true, exempt: false, unlimited: false, active: 1, unattached: { sites: 0, streams: 0 } },
        }),
      }),
    );
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    await page.getByRole('button', { name: 'Add site' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Domains').fill('refused.example.com');
    await drawer.getByLabel('Origin 1 address').fill('10.1.2.3');
    const refused = page.waitForResponse((response) => response.url().endsWith('/v1/sites'));
    await drawer.getByTestId('site-drawer-submit').click();
    expect((await refused).status()).toBe(403);
    await page.getByTestId('package-required').getByText(NOTICE).waitFor();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('shows no notice to an account that needs no package', async () => {
    const { token } = await exempt();
    const page = await suite.openPage({ token });
    const standing = page.waitForResponse((response) => response.url().endsWith('/v1/user-packages/standing'));
    await page.goto(suite.url('/site/list'));
    await consoleReady(page);
    expect(await (await standing).json()).toMatchObject({ data: { unlimited: true } });
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('dialog').getByLabel('Domains').waitFor();
    expect(await page.getByTestId('package-required').count()).toBe(0);
  });
});
