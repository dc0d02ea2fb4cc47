// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, typeInto, waitFor } from '../../shared/testing/dom.ts';
import { DNS_TTL_PATH } from './api.ts';
import { DnsTtlCard } from './DnsTtlCard.tsx';

describe('the record TTL card', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  it('saves both TTLs, then republishes every line group', async () => {
    const calls: { method: string; path: string; body?: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        const body = init.body ? JSON.parse(String(init.body)) : undefined;
        calls.push({ method: init.method ?? 'GET', path, body });
        const data = path.endsWith(DNS_TTL_PATH) ? body : { list: [], total: 0 };
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <DnsTtlCard ttl={{ address_ttl: 60, cname_ttl: 300 }} />
        </QueryClientProvider>
      </AppProviders>,
    );
    const address = await waitFor(() => container.querySelector<HTMLInputElement>('#address_ttl'));
    typeInto(address, '120');
    buttonByText(container, 'Save and republish').click();
    await waitFor(() => calls.length === 2);
    expect(calls).toEqual([
      { method: 'PUT', path: DNS_TTL_PATH, body: { address_ttl: 120, cname_ttl: 300 } },
      { method: 'POST', path: '/v1/node-groups/drift/repair', body: undefined },
    ]);
  });
});
