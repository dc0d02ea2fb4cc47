// @vitest-environment jsdom
import { DEFAULT_SITE_HOTLINK } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typeInto, waitFor } from '../../../shared/testing/dom.ts';
import {
  control,
  errorAt as errorAtControl,
  ok,
  refused,
  TEST_SITE as SITE,
  save,
  siteFormHarness,
  typeIntoArea,
} from '../edit/siteFormHarness.tsx';

describe('the hotlink section of the site edit page', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);
  const open = harness.open;

  const section = (container: ParentNode) => waitFor(() => container.querySelector('[data-testid="hotlink-section"]'));
  const field = <T extends Element>(container: ParentNode, id: string) => control<T>(container, `hotlink_${id}`);
  /** The error antd shows under the field whose control has `id`. */
  const errorAt = (container: ParentNode, id: string) => errorAtControl(container, `hotlink_${id}`);
  const chooseRedirect = async (container: ParentNode) => {
    const redirect = await waitFor(() =>
      container.querySelector<HTMLInputElement>('input[type="radio"][value="redirect"]'),
    );
    redirect.click();
    return field<HTMLInputElement>(container, 'redirect_url');
  };

  it('sends the whole setting: hosts one per line, lowercased, and the redirect URL', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    typeIntoArea(await field(container, 'allowText'), 'Partner.example.org\n\n*.friends.example.net');
    typeIntoArea(await field(container, 'denyText'), 'leech.example.com');
    (await field<HTMLButtonElement>(container, 'allow_empty')).click();
    typeInto(await chooseRedirect(container), 'https://img.example.org/no-hotlinking.png');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({
      hotlink: {
        ...DEFAULT_SITE_HOTLINK,
        enabled: true,
        allow: ['partner.example.org', '*.friends.example.net'],
        deny: ['leech.example.com'],
        allow_empty: false,
        action: 'redirect',
        redirect_url: 'https://img.example.org/no-hotlinking.png',
      },
    });
  });

  it('leaves an untouched setting out of the save', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }), { ...SITE, hotlink: undefined });
    await section(container);
    const name = await waitFor(() => container.querySelector<HTMLInputElement>('#name'));
    typeInto(name, 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('refuses a host that is not a domain, naming it, and sends nothing', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    typeIntoArea(await field(container, 'allowText'), 'partner.example.org\nhttps://evil.example.com/');
    typeIntoArea(await field(container, 'denyText'), 'partner.example.org');
    save(container);
    await waitFor(() => errorAt(container, 'allowText')?.startsWith('https://evil.example.com/ is not allowed'));
    await waitFor(() => errorAt(container, 'denyText') === 'partner.example.org is also an allowed host');
    expect(puts).toEqual([]);
  });

  it('asks for a redirect URL only when refused requests are redirected', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    expect(container.querySelector('#hotlink_redirect_url')).toBeNull();
    await chooseRedirect(container);
    save(container);
    await waitFor(() => errorAt(container, 'redirect_url') === 'A redirect needs a URL');
    typeInto(await field(container, 'redirect_url'), 'ftp://img.example.org/x.png');
    await waitFor(() => errorAt(container, 'redirect_url')?.startsWith('An http:// or https:// URL'));
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal of a redirect loop at the redirect URL', async () => {
    const loop =
      "hotlink/redirect_url: shop.example.com/x.png is one of this site's .png files, which the protection refuses too: the redirect would loop";
    const { container } = open(() => refused(loop));
    await section(container);
    typeInto(await chooseRedirect(container), 'https://shop.example.com/x.png');
    save(container);
    await waitFor(() => errorAt(container, 'redirect_url')?.endsWith('the redirect would loop'));
  });

  it('shows a refused denied host at the denied hosts box', async () => {
    const { container } = open(() => refused('hotlink/deny/0: *.example.com covers the site’s own domain'));
    await section(container);
    typeIntoArea(await field(container, 'denyText'), '*.example.com');
    save(container);
    await waitFor(() => errorAt(container, 'denyText') === '*.example.com covers the site’s own domain');
  });
});
