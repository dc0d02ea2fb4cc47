// @vitest-environment jsdom
import { DEFAULT_SITE_URL_AUTH, URL_AUTH_KEY_PATTERN } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typeInto, waitFor } from '../../../shared/testing/dom.ts';
import {
  control,
  errorAt,
  ok,
  refused,
  save,
  siteFormHarness,
  TEST_SITE,
  typeIntoArea,
} from '../edit/siteFormHarness.tsx';

const KEY = 'k3yK3yk3yK3yk3yK3yk3y';

describe('the signed URLs section of the site edit page', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);

  const section = (container: ParentNode) => waitFor(() => container.querySelector('[data-testid="url-auth-section"]'));
  const field = <T extends Element>(container: ParentNode, name: string) => control<T>(container, `url_auth_${name}`);
  const chooseType = async (container: ParentNode, type: string) =>
    (await waitFor(() => container.querySelector<HTMLInputElement>(`input[type="radio"][value="${type}"]`))).click();

  it('sends the whole setting with a generated key, the backup key, the validity and paths one per line', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    await chooseType(container, 'b');
    (await waitFor(() => container.querySelector<HTMLButtonElement>('[data-testid="url-auth-generate-key"]'))).click();
    await waitFor(() => (container.querySelector<HTMLInputElement>('#url_auth_key')?.value.length ?? 0) > 0);
    typeInto(await field(container, 'backup_key'), ` ${KEY} `);
    typeInto(await field(container, 'ttl'), '5400');
    typeIntoArea(await field(container, 'pathsText'), '/private/\n\n/videos\n/private/');
    save(container);
    await waitFor(() => puts.length === 1);
    const sent = (puts[0] as { url_auth: { key: string } }).url_auth;
    expect(sent.key).toMatch(new RegExp(URL_AUTH_KEY_PATTERN));
    expect(sent.key).toHaveLength(32);
    expect(puts[0]).toEqual({
      url_auth: {
        ...DEFAULT_SITE_URL_AUTH,
        enabled: true,
        type: 'b',
        key: sent.key,
        backup_key: KEY,
        ttl: 5400,
        paths: ['/private/', '/videos'],
      },
    });
  });

  it('leaves an untouched setting out of the save, also on a site saved before it existed', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }), {
      ...TEST_SITE,
      url_auth: undefined,
      error_pages: undefined,
    });
    await section(container);
    typeInto(await waitFor(() => container.querySelector<HTMLInputElement>('#name')), 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('shows the validity in words and, once on, the shape of a signed link for the first domain', async () => {
    const { container } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    typeInto(await field(container, 'ttl'), '5400');
    await waitFor(() =>
      container.textContent?.includes('A signed URL stays good for 1 hour 30 minutes after its time'),
    );
    expect(container.querySelector('[data-testid="url-auth-example"]')).toBeNull();
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    await chooseType(container, 'b');
    typeIntoArea(await field(container, 'pathsText'), '/private/');
    const example = () => container.querySelector('[data-testid="url-auth-example-url"]')?.textContent;
    await waitFor(() => example() === 'https://shop.example.com/<YYYYMMDDHHMM>/<md5>/private/example.mp4');
    await chooseType(container, 'a');
    await waitFor(() => example() === 'https://shop.example.com/private/example.mp4?auth_key=<ts>-<rand>-<uid>-<md5>');
  });

  it('names the rule a key, a backup key or a path breaks, and sends nothing', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    typeIntoArea(await field(container, 'pathsText'), '/private/\nvideos/');
    save(container);
    await waitFor(() => errorAt(container, 'url_auth_key') === 'Signed URLs need a primary key');
    await waitFor(() =>
      errorAt(container, 'url_auth_pathsText')?.startsWith('videos/ is not allowed: a path starting with /'),
    );
    typeInto(await field(container, 'key'), 'short');
    await waitFor(() => errorAt(container, 'url_auth_key') === 'A key is 16 to 64 letters or digits (A–Z, a–z, 0–9)');
    typeInto(await field(container, 'key'), KEY);
    typeInto(await field(container, 'backup_key'), KEY);
    save(container);
    await waitFor(
      () => errorAt(container, 'url_auth_backup_key') === 'The backup key must differ from the primary key',
    );
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal of a repeated file type at the file types', async () => {
    const { container } = harness.open(() => refused('url_auth/extensions/1: MP4 is listed twice'));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    typeInto(await field(container, 'key'), KEY);
    save(container);
    await waitFor(() => errorAt(container, 'url_auth_extensions') === 'MP4 is listed twice');
  });

  it('shows a schema refusal of the validity at the validity', async () => {
    const { container } = harness.open(() => refused('body/url_auth/ttl: must be <= 31536000'));
    await section(container);
    typeInto(await field(container, 'ttl'), '60');
    save(container);
    await waitFor(() => errorAt(container, 'url_auth_ttl') === 'must be <= 31536000');
  });
});
