import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { useSuite } from './support/suite.ts';

describe('route guard', () => {
  const suite = useSuite();

  it('sends an unauthenticated visit to login with the full path to return to', async () => {
    const page = await suite.openPage();
    await page.goto(suite.url('/site/list'));
    await page.waitForURL(suite.url('/login?redirect=%2Fsite%2Flist'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.title()).toBe('Sign in - Rampart');
  });

  it('sends a user whose token the server no longer accepts to login', async () => {
    const page = await suite.openPage({ token: 'revoked-or-made-up' });
    await page.goto(suite.url('/home'));
    await page.waitForURL(suite.url('/login?redirect=%2Fhome'));
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('token');
  });

  it('shows the 404 page for an unknown path when signed in', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword) });
    await page.goto(suite.url('/anything/unknown'));
    await page.getByTestId('error-404').waitFor();
    await page.getByText('Page missing').waitFor();
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL(suite.url('/admin-home'));
  });
});
