// @vitest-environment jsdom
import type { GeoipDatabase } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { uploadName } from './api.ts';
import { GeoipPanel } from './GeoipPanel.tsx';

interface Call {
  method: string;
  url: URL;
  body: unknown;
}

const BUNDLED: GeoipDatabase = {
  sha256: 'a'.repeat(64),
  size: 7_841_291,
  source: 'bundled',
  name: '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
  database_type: 'country ipvAll',
  built_at: 1_781_725_900,
  uploaded_at: 0,
};

describe('the GeoIP database panel', () => {
  let root: Root | undefined;
  let calls: Call[];
  beforeEach(() => {
    installDomStubs();
    // antd measures some controls; jsdom has no ResizeObserver.
    vi.stubGlobal(
      'ResizeObserver',
      globalThis.ResizeObserver ??
        class {
          observe() {}
          unobserve() {}
          disconnect() {}
        },
    );
    calls = [];
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const render = (language: 'en-US' | 'zh-CN') => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <GeoipPanel />
        </QueryClientProvider>
      </AppProviders>,
    );
    return container;
  };

  it('shows the database in use, uploads a file in its place, and goes back to the bundled one', async () => {
    let current: GeoipDatabase = BUNDLED;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const call = { method: init.method ?? 'GET', url: new URL(url, 'http://x'), body: init.body };
        calls.push(call);
        if (call.method === 'POST') {
          current = {
            ...BUNDLED,
            sha256: 'b'.repeat(64),
            source: 'uploaded',
            name: 'GeoIP2_Country.mmdb',
            uploaded_at: 1,
          };
        } else if (call.method === 'DELETE') current = BUNDLED;
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: current }));
      }),
    );
    const container = render('en-US');
    await waitFor(() => container.textContent?.includes('a'.repeat(64)));
    expect(container.textContent).toContain('Bundled with the master');
    expect(container.textContent).toContain('country ipvAll');
    expect(container.textContent).not.toContain('Use the bundled database');

    buttonByText(container, 'Upload').click();
    await waitFor(() => container.textContent?.includes('Choose a .mmdb file'));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    const input = container.querySelector<HTMLInputElement>('input[type=file]');
    if (!input) throw new Error('no file input');
    const file = new File([new Uint8Array([1, 2, 3])], 'GeoIP2 Country (1).mmdb');
    Object.defineProperty(input, 'files', { value: [file] });
    input.dispatchEvent(new Event('change', { bubbles: true }));
    buttonByText(container, 'Upload').click();
    await waitFor(() => container.textContent?.includes('b'.repeat(64)));
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url.pathname).toBe('/v1/geoip');
    expect(post?.url.searchParams.get('name')).toBe('GeoIP2 Country _1_.mmdb');
    expect(post?.body).toBe(file);
    expect(container.textContent).toContain('Uploaded');

    buttonByText(container, 'Use the bundled database').click();
    const confirm = await waitFor(() =>
      [...document.querySelectorAll<HTMLButtonElement>('.ant-popconfirm button')].find((button) =>
        button.textContent?.match(/OK/),
      ),
    );
    confirm.click();
    await waitFor(() => calls.some((call) => call.method === 'DELETE'));
    await waitFor(() => container.textContent?.includes('a'.repeat(64)));
  });

  it('says so in Chinese when there is no database', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 0, msg: 'ok', data: null }))),
    );
    const container = render('zh-CN');
    await waitFor(() => container.textContent?.includes('没有 GeoIP 数据库'));
  });

  it('sends a file name the master takes', () => {
    expect(uploadName('GeoLite2-Country.mmdb')).toBe('GeoLite2-Country.mmdb');
    expect(uploadName('国家.mmdb')).toBe('__.mmdb');
    expect(uploadName('')).toBe('upload.mmdb');
  });
});
