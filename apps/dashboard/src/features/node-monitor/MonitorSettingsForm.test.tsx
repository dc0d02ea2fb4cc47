// @vitest-environment jsdom
import { DEFAULT_NODE_MONITOR } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { MONITOR_SETTINGS_PATH } from './api.ts';
import { MonitorSettingsForm } from './MonitorSettingsForm.tsx';

/** The select measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('monitor settings form', () => {
  let root: Root | undefined;
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const open = () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (!url.endsWith(MONITOR_SETTINGS_PATH) || init.method !== 'PUT') throw new Error(`unexpected ${url}`);
        puts.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: JSON.parse(String(init.body)) }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MonitorSettingsForm settings={{ ...DEFAULT_NODE_MONITOR, probe: 'http', path: '/healthz' }} />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, puts };
  };

  it('hides the HTTP fields for a TCP probe and still saves a whole value, keeping the path', async () => {
    const { container, puts } = open();
    const tcp = await waitFor(() =>
      [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find((input) => input.value === 'tcp'),
    );
    expect(container.textContent).toContain('HTTP path');
    tcp.click();
    await waitFor(() => !container.textContent?.includes('HTTP path'));
    buttonByText(container, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ ...DEFAULT_NODE_MONITOR, path: '/healthz', probe: 'tcp' });
  });
});
