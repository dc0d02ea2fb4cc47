import { ERROR_PAGE_MAX_LENGTH } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { sharedPart } from '../agent/snapshot.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('a site’s own error pages on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  it('stores pages by status, sends them to the edges, and names what is refused', async () => {
    const created = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { domains: ['shop.example.com'], origins: [origin] },
    });
    expect((created.body.data as { error_pages: unknown }).error_pages).toEqual({});
    const id = (created.body.data as { id: number }).id;
    const error_pages = { '502': '<h1>Restocking</h1>', waf: '<h1>Refused</h1>' };
    const saved = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { error_pages } });
    expect(saved.body).toMatchObject({ code: 0, data: { error_pages } });
    const shared = JSON.parse(
      `{${(await sharedPart(test.database.db, await currentConfigVersion(test.database.db))).json}}`,
    ) as { sites: { id: number; error_pages?: unknown }[] };
    expect(shared.sites.find((entry) => entry.id === id)?.error_pages).toEqual(error_pages);

    const refused = [
      [{ '418': '<h1>teapot</h1>' }, 'body/error_pages'],
      [{ '404': '' }, 'body/error_pages/404'],
      [{ '404': 'x'.repeat(ERROR_PAGE_MAX_LENGTH + 1) }, 'body/error_pages/404'],
    ] as const;
    for (const [pages, field] of refused) {
      const answer = await test.call('PUT', `/v1/sites/${id}`, { token: alice, body: { error_pages: pages } });
      expect(answer.body.code, JSON.stringify(pages).slice(0, 80)).toBe('invalid_param');
      expect(answer.body.msg).toContain(field);
    }
    // Nothing refused was stored.
    expect((await test.call('GET', `/v1/sites/${id}`, { token: alice })).body).toMatchObject({ data: { error_pages } });
  });
});
