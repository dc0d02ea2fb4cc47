// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { EDGE_CONFIG_KEYS } from './api.ts';
import { MastersCard } from './MastersCard.tsx';

const STORED = { masters: ['https://cdn1.example.com', 'https://cdn2.example.com:8443'] };

describe('masters card', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const open = (language: 'en-US' | 'zh-CN') => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (!url.endsWith(`/v1/configs/${EDGE_CONFIG_KEYS.masters}`)) throw new Error(`unexpected ${url}`);
        const value = init.method === 'PUT' ? JSON.parse(String(init.body)) : STORED;
        if (init.method === 'PUT') puts.push(value);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: value }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MastersCard />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, puts };
  };

  it('shows the stored masters in their order and saves them back', async () => {
    const { container, puts } = open('en-US');
    await waitFor(() => container.textContent?.includes('https://cdn2.example.com:8443'));
    expect(container.textContent).toContain('Master addresses');
    const text = container.textContent ?? '';
    expect(text.indexOf('https://cdn1.example.com')).toBeLessThan(text.indexOf('https://cdn2.example.com:8443'));
    buttonByText(container, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual(STORED);
  });

  it('speaks Chinese in zh-CN', async () => {
    const { container } = open('zh-CN');
    await waitFor(() => container.textContent?.includes('主控地址'));
  });
});
